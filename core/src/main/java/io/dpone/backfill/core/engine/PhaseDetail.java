package io.dpone.backfill.core.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.core.target.ValidationResult;

/**
 * The small JSON evidence document kept in the campaign row: validation numbers, the reason for Blocked or
 * Recoverable, receipts. Bounded: a handful of scalar fields, never per-chunk data.
 */
public final class PhaseDetail {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_REASON = 1000;
    private final ObjectNode node;

    private PhaseDetail(ObjectNode node) {
        this.node = node;
    }

    public static PhaseDetail parse(String json) {
        try {
            JsonNode n = json == null || json.isBlank() ? JSON.createObjectNode() : JSON.readTree(json);
            return new PhaseDetail(n instanceof ObjectNode o ? o : JSON.createObjectNode());
        } catch (JsonProcessingException e) {
            return new PhaseDetail(JSON.createObjectNode());
        }
    }

    public PhaseDetail with(String field, String value) {
        ObjectNode copy = node.deepCopy();
        if (value == null) {
            copy.remove(field);
        } else {
            copy.put(field, value.length() > MAX_REASON ? value.substring(0, MAX_REASON) + "..." : value);
        }
        return new PhaseDetail(copy);
    }

    public PhaseDetail withValidation(ValidationResult v) {
        ObjectNode copy = node.deepCopy();
        ObjectNode n = copy.putObject("validation");
        n.put("expectedRows", v.expectedRows());
        n.put("actualRows", v.actualRows());
        n.put("nullKeys", v.nullKeys());
        n.put("duplicateKeys", v.duplicateKeys());
        n.put("passed", v.passed());
        return new PhaseDetail(copy);
    }

    public String text(String field) {
        JsonNode n = node.get(field);
        return n == null || n.isNull() ? null : n.asText();
    }

    public ValidationResult validation() {
        JsonNode n = node.get("validation");
        if (n == null) {
            return null;
        }
        return new ValidationResult(n.path("expectedRows").asLong(), n.path("actualRows").asLong(),
                n.path("nullKeys").asLong(), n.path("duplicateKeys").asLong());
    }

    public String json() {
        return node.toString();
    }
}
