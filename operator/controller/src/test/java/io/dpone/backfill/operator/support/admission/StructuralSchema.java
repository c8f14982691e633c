package io.dpone.backfill.operator.support.admission;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The OpenAPI v3 part of a CRD's structural schema, checked the way the API server checks a custom resource
 * (kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/validation/validation.go, the
 * kube-openapi validator it wraps): type, enum, pattern, min/maxLength (in characters, not UTF-16 units),
 * minimum/maximum, min/maxItems, required, properties and additionalProperties.
 * <p>
 * Two deliberate differences, both stricter: a field the schema does not know is reported rather than pruned
 * (the server prunes it, or refuses it with {@code fieldValidation=Strict} as kubectl sends; either way what the
 * operator meant to write would be lost), unless {@code x-kubernetes-preserve-unknown-fields} is set. A JSON null is
 * treated as an absent field: the API server prunes nulls of non-nullable fields before validation.
 */
final class StructuralSchema {
    private StructuralSchema() {
    }

    static void validate(JsonNode value, JsonNode schema, String path, List<String> errors) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return;
        }
        String type = schema.path("type").asText("");
        if (!type.isEmpty() && !hasType(value, type)) {
            errors.add(path + ": Invalid value: \"" + kind(value) + "\": " + path + " in body must be of type " + type);
            return;
        }
        if (schema.has("enum") && !contains(schema.get("enum"), value)) {
            errors.add(path + ": Unsupported value: " + value + ": supported values: " + schema.get("enum"));
        }
        if (value.isTextual()) {
            String s = value.asText();
            int chars = s.codePointCount(0, s.length());
            if (schema.has("maxLength") && chars > schema.get("maxLength").asLong()) {
                errors.add(path + ": Too long: may not be more than " + schema.get("maxLength").asLong() + " bytes");
            }
            if (schema.has("minLength") && chars < schema.get("minLength").asLong()) {
                errors.add(path + ": Invalid value: \"" + s + "\": " + path + " in body should be at least "
                        + schema.get("minLength").asLong() + " chars long");
            }
            // Go's RE2 and java.util.regex agree on the patterns a CRD uses (classes, anchors, bounded repeats).
            if (schema.has("pattern") && !Pattern.compile(schema.get("pattern").asText()).matcher(s).find()) {
                errors.add(path + ": Invalid value: \"" + s + "\": " + path + " in body should match '" + schema.get("pattern").asText() + "'");
            }
        }
        if (value.isNumber()) {
            if (schema.has("maximum") && value.asDouble() > schema.get("maximum").asDouble()) {
                errors.add(path + ": Invalid value: " + value + ": " + path + " in body should be less than or equal to " + schema.get("maximum").asText());
            }
            if (schema.has("minimum") && value.asDouble() < schema.get("minimum").asDouble()) {
                errors.add(path + ": Invalid value: " + value + ": " + path + " in body should be greater than or equal to " + schema.get("minimum").asText());
            }
        }
        if (value.isArray()) {
            if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
                errors.add(path + ": Too many: " + value.size() + ": must have at most " + schema.get("maxItems").asInt() + " items");
            }
            if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
                errors.add(path + ": Invalid value: " + value.size() + ": " + path + " in body should have at least " + schema.get("minItems").asInt() + " items");
            }
            for (int i = 0; i < value.size(); i++) {
                validate(value.get(i), schema.path("items"), path + "[" + i + "]", errors);
            }
        }
        if (value.isObject()) {
            object(value, schema, path, errors);
        }
    }

    private static void object(JsonNode value, JsonNode schema, String path, List<String> errors) {
        for (JsonNode required : schema.path("required")) {
            JsonNode field = value.get(required.asText());
            if (field == null || field.isNull()) {
                errors.add(join(path, required.asText()) + ": Required value");
            }
        }
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.get("additionalProperties");
        boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String child = join(path, field.getKey());
            if (properties.has(field.getKey())) {
                validate(field.getValue(), properties.get(field.getKey()), child, errors);
            } else if (additional != null && additional.isObject()) {
                validate(field.getValue(), additional, child, errors);
            } else if (!preserve) {
                errors.add(child + ": unknown field \"" + field.getKey() + "\" (the API server prunes it)");
            }
        }
    }

    static String join(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private static boolean hasType(JsonNode value, String type) {
        return switch (type) {
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber() || value.isNumber() && value.asDouble() == Math.rint(value.asDouble());
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            default -> true;
        };
    }

    private static String kind(JsonNode value) {
        return value.isObject() ? "object" : value.isArray() ? "array" : value.isTextual() ? "string"
                : value.isBoolean() ? "boolean" : value.isIntegralNumber() ? "integer" : "number";
    }

    private static boolean contains(JsonNode options, JsonNode value) {
        for (JsonNode option : options) {
            if (option.equals(value)) {
                return true;
            }
        }
        return false;
    }
}
