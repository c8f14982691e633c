package io.dpone.backfill.operator.support.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * A CRD's {@code x-kubernetes-validations} rules, evaluated with a real CEL implementation ({@code dev.cel:cel}) the
 * way the API server evaluates them (kubernetes/kubernetes
 * staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go):
 * <ul>
 *     <li>each rule is evaluated with {@code self} bound to the value at the schema node that carries it, and only
 *     where that value is present;</li>
 *     <li>a transition rule (one that names {@code oldSelf}) is evaluated only on an update and only when the old
 *     object has a value at the same place ("transition rules are evaluated only if there is a comparable existing
 *     value"), with {@code oldSelf} bound to it;</li>
 *     <li>at the root, {@code self.metadata} holds only {@code name} and {@code generateName} (the rest of the
 *     metadata is not visible to rules);</li>
 *     <li>a rule that does not compile, errors, or is not {@code true} refuses the write with its message.</li>
 * </ul>
 * The Kubernetes string extension library is the CEL strings extension; the standard library and macros supply
 * {@code size()}, {@code matches()}, {@code has()}, {@code all()} and {@code exists()}. Rules must use nothing
 * else, or they fail to compile here.
 */
final class CelRules {
    private static final Pattern OLD_SELF = Pattern.compile("\\boldSelf\\b");
    private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
            .addVar("self", SimpleType.DYN)
            .addVar("oldSelf", SimpleType.DYN)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addLibraries(CelExtensions.strings())
            .build();
    private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder()
            .addLibraries(CelExtensions.strings())
            .build();
    private static final Map<String, CelRuntime.Program> PROGRAMS = new ConcurrentHashMap<>();

    private CelRules() {
    }

    /** Walks the schema and the new object together; {@code old} is null on create. */
    static void validate(JsonNode value, JsonNode old, JsonNode schema, String path, List<String> errors) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return;
        }
        boolean hasOld = old != null && !old.isNull() && !old.isMissingNode();
        for (JsonNode rule : schema.path("x-kubernetes-validations")) {
            String expression = rule.path("rule").asText();
            boolean transition = OLD_SELF.matcher(expression).find();
            if (transition && !hasOld) {
                continue;
            }
            Map<String, Object> activation = new HashMap<>();
            activation.put("self", toCel(value, path.isEmpty()));
            if (transition) {
                activation.put("oldSelf", toCel(old, path.isEmpty()));
            }
            // A rule's fieldPath names the field the API server reports it on (".spec.reconcile" reads spec.reconcile).
            String where = rule.hasNonNull("fieldPath")
                    ? StructuralSchema.join(path, rule.get("fieldPath").asText().replaceFirst("^\\.", ""))
                    : path.isEmpty() ? "<root>" : path;
            try {
                Object result = program(expression).eval(activation);
                if (!Boolean.TRUE.equals(result)) {
                    errors.add(where + ": Invalid value: " + rule.path("reason").asText("FieldValueInvalid") + ": "
                            + rule.path("message").asText("failed rule: " + expression));
                }
            } catch (CelEvaluationException e) {
                errors.add(where + ": Invalid value: rule evaluation error: " + e.getMessage() + " (rule: " + expression + ")");
            }
        }
        JsonNode properties = schema.path("properties");
        if (value.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                JsonNode child = properties.has(field.getKey()) ? properties.get(field.getKey()) : schema.get("additionalProperties");
                if (child != null && child.isObject()) {
                    validate(field.getValue(), hasOld ? old.get(field.getKey()) : null, child, StructuralSchema.join(path, field.getKey()), errors);
                }
            }
        }
        if (value.isArray() && schema.has("items")) {
            // Our schema has no list-type map/set to correlate items by key; rules under items see no oldSelf.
            for (int i = 0; i < value.size(); i++) {
                validate(value.get(i), null, schema.get("items"), path + "[" + i + "]", errors);
            }
        }
    }

    private static CelRuntime.Program program(String expression) {
        return PROGRAMS.computeIfAbsent(expression, e -> {
            CelValidationResult compiled = COMPILER.compile(e);
            if (compiled.hasError()) {
                throw new IllegalStateException("rule compile error (the API server refuses the CRD): " + compiled.getErrorString());
            }
            try {
                CelAbstractSyntaxTree ast = compiled.getAst();
                return RUNTIME.createProgram(ast);
            } catch (CelValidationException | CelEvaluationException ex) {
                throw new IllegalStateException("rule compile error: " + e, ex);
            }
        });
    }

    /** JSON as CEL sees it: maps, lists, int (long), double, string, bool; nulls are absent fields. */
    static Object toCel(JsonNode node, boolean root) {
        if (node.isObject()) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (field.getValue().isNull()) {
                    continue;
                }
                if (root && field.getKey().equals("metadata")) {
                    Map<String, Object> metadata = new LinkedHashMap<>();
                    for (String visible : List.of("name", "generateName")) {
                        if (field.getValue().hasNonNull(visible)) {
                            metadata.put(visible, field.getValue().get(visible).asText());
                        }
                    }
                    map.put("metadata", metadata);
                } else {
                    map.put(field.getKey(), toCel(field.getValue(), false));
                }
            }
            return map;
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>();
            node.forEach(item -> list.add(toCel(item, false)));
            return list;
        }
        if (node.isIntegralNumber()) {
            return node.asLong();
        }
        if (node.isNumber()) {
            return node.asDouble();
        }
        if (node.isBoolean()) {
            return node.asBoolean();
        }
        return node.asText();
    }
}
