package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import io.dpone.backfill.core.campaign.rule.Max;
import io.dpone.backfill.core.campaign.rule.Min;
import io.dpone.backfill.core.campaign.rule.Pattern;
import io.dpone.backfill.core.campaign.rule.Required;
import io.dpone.backfill.core.campaign.rule.Size;

import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The spec table of {@code src-docs/manifest-reference.md}, generated from the model: one row per field with its
 * path, type, default, bounds, rule and description. Types and bounds come from the Java model and its schema
 * annotations, defaults from {@link SpecDefaults} applied to a minimal spec, descriptions from
 * {@code @JsonPropertyDescription}, and the rest from {@link ManifestNotes}. So the page cannot drift from the
 * model that the CLI parses and the CRD is generated from.
 */
public final class ManifestReference {
    public static final String BEGIN = "<!-- BEGIN GENERATED from the model by ManifestReference: edit the model or ManifestNotes,"
            + " then ./mvnw -pl lane-worker/engine verify -Dtest=ManifestReferenceTest -Dmanifest.update=true -->";
    public static final String END = "<!-- END GENERATED -->";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String MODEL_PACKAGE = BackfillCampaignSpec.class.getPackageName();

    /** One documented field. */
    public record Field(String path, String type, String defaultValue, String bounds, String rule, String description) {
    }

    private ManifestReference() {
    }

    /** Every field of the spec, in the model's order; nested objects are documented by their fields. */
    public static List<Field> fields() {
        JsonNode defaults = MAPPER.valueToTree(SpecDefaults.apply(minimalSpec()));
        List<Field> fields = new ArrayList<>();
        collect(MAPPER.constructType(BackfillCampaignSpec.class), "spec", defaults, false, fields);
        return fields;
    }

    /** The generated block, markers included. */
    public static String markdown() {
        StringBuilder md = new StringBuilder(BEGIN).append("\n\n");
        md.append("| field | type | default | bounds | rule | description |\n|---|---|---|---|---|---|\n");
        for (Field f : fields()) {
            md.append("| `").append(f.path()).append("` | ").append(cell(f.type())).append(" | ").append(cell(f.defaultValue()))
                    .append(" | ").append(cell(f.bounds())).append(" | ").append(cell(f.rule())).append(" | ")
                    .append(cell(f.description())).append(" |\n");
        }
        return md.append('\n').append(END).toString();
    }

    /** {@code page} with its generated block replaced by the one the model gives now. */
    public static String regenerate(String page) {
        int begin = page.indexOf(BEGIN);
        int end = page.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("the page has no generated block (" + BEGIN + " ... " + END + ")");
        }
        return page.substring(0, begin) + markdown() + page.substring(end + END.length());
    }

    private static void collect(JavaType type, String prefix, JsonNode defaults, boolean optionalParent, List<Field> out) {
        BeanDescription bean = MAPPER.getSerializationConfig().introspect(type);
        for (BeanPropertyDefinition property : bean.findProperties()) {
            String path = prefix + "." + property.getName();
            JavaType child = property.getPrimaryType();
            AnnotatedElement field = property.getField() == null ? null : (AnnotatedElement) property.getField().getAnnotated();
            boolean required = field != null && field.isAnnotationPresent(Required.class);
            JsonNode childDefaults = defaults == null ? null : defaults.get(property.getName());
            if (isModelObject(child)) {
                collect(child, path, childDefaults, optionalParent || !required, out);
                continue;
            }
            ManifestNotes.Note note = ManifestNotes.NOTES.get(path);
            String description = property.getMetadata().getDescription();
            out.add(new Field(path,
                    note != null && note.type() != null ? note.type() : typeOf(child),
                    note != null && note.defaultValue() != null ? note.defaultValue()
                            : required ? (optionalParent ? "required in its object" : "required") : defaultOf(childDefaults),
                    field == null ? "" : bounds(field, child),
                    note == null ? "" : note.rule(),
                    description == null ? "" : description));
        }
    }

    /** A spec that passes structural validation with as few fields as possible: every other field takes its default. */
    private static BackfillCampaignSpec minimalSpec() {
        BackfillCampaignSpec s = new BackfillCampaignSpec();
        SourceSpec source = new SourceSpec();
        s.setSource(source);
        TargetSpec target = new TargetSpec();
        target.setType(TargetType.values()[0]); // any: the reference lists fields, not a route
        s.setTarget(target);
        ChunkSpec chunk = new ChunkSpec();
        chunk.setKind(ChunkKind.UUID);
        s.setChunk(chunk);
        return s;
    }

    private static boolean isModelObject(JavaType t) {
        return t.getRawClass().getPackageName().equals(MODEL_PACKAGE) && !t.isEnumType();
    }

    private static String typeOf(JavaType t) {
        Class<?> raw = t.getRawClass();
        if (t.isEnumType()) {
            return Arrays.stream(raw.getEnumConstants()).map(c -> "`" + MAPPER.convertValue(c, String.class) + "`")
                    .collect(Collectors.joining(" | "));
        }
        if (raw == String.class) {
            return "string";
        }
        if (raw == Integer.class || raw == int.class) {
            return "integer";
        }
        if (raw == Long.class || raw == long.class) {
            return "integer (int64)";
        }
        if (raw == Boolean.class || raw == boolean.class) {
            return "boolean";
        }
        if (t.isCollectionLikeType()) {
            return "list of " + typeOf(t.getContentType());
        }
        if (t.isMapLikeType()) {
            return "map of " + typeOf(t.getKeyType()) + " to " + typeOf(t.getContentType());
        }
        return raw.getSimpleName();
    }

    private static String defaultOf(JsonNode value) {
        if (value == null || value.isNull()) {
            return "none";
        }
        return "`" + (value.isTextual() ? value.asText() : value.toString()) + "`";
    }

    private static String bounds(AnnotatedElement field, JavaType type) {
        List<String> b = new ArrayList<>();
        Min min = field.getAnnotation(Min.class);
        Max max = field.getAnnotation(Max.class);
        if (min != null && max != null) {
            b.add(number(min.value()) + ".." + number(max.value()));
        } else if (min != null) {
            b.add(">= " + number(min.value()));
        } else if (max != null) {
            b.add("<= " + number(max.value()));
        }
        Size size = field.getAnnotation(Size.class);
        if (size != null) {
            String unit = type.isCollectionLikeType() ? " items" : " characters";
            b.add(size.max() == Long.MAX_VALUE ? "at least " + size.min() + unit : size.min() + ".." + size.max() + unit);
        }
        Pattern pattern = field.getAnnotation(Pattern.class);
        if (pattern != null) {
            b.add("matches `" + pattern.value() + "`");
        }
        return String.join("; ", b);
    }

    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static String cell(String s) {
        return s == null || s.isEmpty() ? "" : s.replace("|", "\\|").replace("\n", " ");
    }

    /** The notes of paths the model does not have: stale once a field is renamed or removed. */
    static List<String> unknownNotePaths() {
        List<String> paths = fields().stream().map(Field::path).toList();
        return ManifestNotes.NOTES.keySet().stream().filter(p -> !paths.contains(p)).toList();
    }
}
