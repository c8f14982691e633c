package io.dpone.backfill.core.manifest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Strict YAML binding: unknown fields, scalars of the wrong type ({@code "64"} for an integer), duplicate keys and
 * extra documents are errors that name the field path, never silently coerced or ignored; YAML a manifest does not
 * use (aliases, merge keys, tags, non-string keys, names with invisible edges) is refused first ({@link PlainYaml}).
 */
public final class StrictYaml {
    private static final ObjectMapper MAPPER = configure(YAMLMapper.builder(
            YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build()));

    private StrictYaml() {
    }

    static ObjectMapper configure(com.fasterxml.jackson.databind.cfg.MapperBuilder<?, ?> builder) {
        ObjectMapper mapper = builder
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .build();
        for (LogicalType type : List.of(LogicalType.Integer, LogicalType.Float, LogicalType.Boolean)) {
            mapper.coercionConfigFor(type).setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Enum).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);
        return mapper;
    }

    /** A JSON mapper with the same strictness, for documents that arrive as JSON. */
    public static ObjectMapper strictJson() {
        return configure(JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION));
    }

    /** Binds exactly one YAML document to {@code type}; any problem becomes a {@link CampaignRejectedException}. */
    public static <T> T read(String yaml, Class<T> type) {
        PlainYaml.check(yaml);
        try (JsonParser parser = MAPPER.createParser(yaml)) {
            if (parser.nextToken() == null) {
                throw rejected("", "empty", "the file holds no YAML document");
            }
            if (parser.currentToken() != JsonToken.START_OBJECT) {
                throw rejected("", "wrong-type", "the document must be a mapping");
            }
            T value = MAPPER.readValue(parser, type);
            if (parser.nextToken() != null) {
                throw rejected("", "single-document", "the file must hold exactly one YAML document");
            }
            return value;
        } catch (UnrecognizedPropertyException e) {
            Collection<Object> known = e.getKnownPropertyIds();
            throw rejected(path(e), "unknown-field", "unknown field '" + e.getPropertyName() + "'"
                    + (known == null || known.isEmpty() ? "" : "; known fields: "
                    + known.stream().map(String::valueOf).sorted().collect(Collectors.joining(", "))));
        } catch (InvalidFormatException e) {
            throw rejected(path(e), e.getTargetType() != null && e.getTargetType().isEnum() ? "enum" : "wrong-type",
                    describeValue(e.getValue()) + " " + expectation(e.getTargetType()));
        } catch (MismatchedInputException e) {
            throw rejected(path(e), "wrong-type", "expected " + typeName(e.getTargetType()) + firstLine(e));
        } catch (JsonMappingException e) {
            String original = String.valueOf(e.getOriginalMessage());
            if (original.startsWith("Duplicate field '")) {
                // Raised while binding, so the binder's path stops at the enclosing object: add the key itself.
                String key = original.substring("Duplicate field '".length(), original.indexOf('\'', "Duplicate field '".length()));
                String at = path(e);
                throw rejected(at.isEmpty() ? key : at + "." + key, "duplicate-key", "duplicate key '" + key + "'");
            }
            if (e.getCause() instanceof InputCoercionException coercion) {
                throw rejected(path(e), "range", "number is out of range for " + typeName(coercion.getTargetType()));
            }
            if (e.getCause() instanceof StreamReadException syntax) {
                throw rejected(path(e), "yaml-syntax", syntaxMessage(syntax));
            }
            throw rejected(path(e), "invalid", firstLine(e).replaceFirst("^: ", ""));
        } catch (InputCoercionException e) {
            throw rejected(path(e), "range", "number is out of range for " + typeName(e.getTargetType()));
        } catch (StreamReadException e) {
            String message = e.getOriginalMessage();
            if (message != null && message.startsWith("Duplicate field")) {
                throw rejected(path(e), "duplicate-key", "duplicate key " + message.substring("Duplicate field ".length()));
            }
            throw rejected(path(e), "yaml-syntax", syntaxMessage(e));
        } catch (IOException e) {
            throw rejected("", "yaml-syntax", String.valueOf(e.getMessage()));
        }
    }

    private static String syntaxMessage(StreamReadException e) {
        String message = e.getOriginalMessage();
        return (message == null ? "malformed YAML" : message.lines().findFirst().orElse(message))
                + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")");
    }

    private static CampaignRejectedException rejected(String path, String rule, String message) {
        return new CampaignRejectedException(List.of(new FieldError(path, rule, message)));
    }

    private static String path(JsonMappingException e) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (b.length() > 0) {
                    b.append('.');
                }
                b.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                b.append('[').append(ref.getIndex()).append(']');
            }
        }
        return b.toString();
    }

    /** Rebuilds the field path from the parser's context when the error came from the parser, not the binder. */
    private static String path(StreamReadException e) {
        JsonParser parser = e.getProcessor();
        if (parser == null) {
            return "";
        }
        java.util.ArrayDeque<String> parts = new java.util.ArrayDeque<>();
        for (JsonStreamContext ctx = parser.getParsingContext(); ctx != null && !ctx.inRoot(); ctx = ctx.getParent()) {
            if (ctx.inObject() && ctx.getCurrentName() != null) {
                parts.addFirst("." + ctx.getCurrentName());
            } else if (ctx.inArray()) {
                parts.addFirst("[" + Math.max(0, ctx.getCurrentIndex()) + "]");
            }
        }
        String joined = String.join("", parts);
        return joined.startsWith(".") ? joined.substring(1) : joined;
    }

    private static String expectation(Class<?> type) {
        if (type != null && type.isEnum()) {
            return "is not one of [" + Arrays.stream(type.getEnumConstants())
                    .map(StrictYaml::wireName).collect(Collectors.joining(", ")) + "]";
        }
        return "is not " + typeName(type);
    }

    private static String wireName(Object constant) {
        try {
            com.fasterxml.jackson.annotation.JsonProperty p = constant.getClass()
                    .getField(((Enum<?>) constant).name()).getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
            return p != null ? p.value() : constant.toString();
        } catch (NoSuchFieldException e) {
            return constant.toString();
        }
    }

    private static String describeValue(Object value) {
        return value instanceof String s ? "'" + s + "'" : String.valueOf(value);
    }

    static String typeName(Class<?> type) {
        if (type == null) {
            return "a different type";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "a boolean (true or false)";
        }
        if (type == String.class) {
            return "a string";
        }
        if (List.class.isAssignableFrom(type) || Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (Map.class.isAssignableFrom(type) || !type.getName().startsWith("java.")) {
            return type.isEnum() ? "one of its allowed values" : "a mapping";
        }
        return "a " + type.getSimpleName().toLowerCase(Locale.ROOT);
    }

    private static String firstLine(JsonMappingException e) {
        String original = e.getOriginalMessage();
        if (original == null) {
            return "";
        }
        String line = original.lines().findFirst().orElse("");
        if (line.contains("Cannot coerce") || line.contains("Cannot deserialize") || line.contains("from String value")) {
            return ""; // Jackson's wording names Java types; our own message already says what is expected.
        }
        return ": " + line;
    }
}
