package io.dpone.backfill.core.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.core.campaign.PreflightStatus;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.source.SourceCoverage;
import io.dpone.backfill.core.source.SourceReadCost;
import io.dpone.backfill.core.publish.ValidationResult;


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
            copy.put(field, bounded(value));
        }
        return new PhaseDetail(copy);
    }

    /** Text for the status, cut to {@value #MAX_REASON} characters. */
    private static String bounded(String text) {
        return text.length() > MAX_REASON ? text.substring(0, MAX_REASON) + "..." : text;
    }

    /** Blocked for {@code code}, with the particulars in {@code blockedReason}. */
    public PhaseDetail withBlock(BlockReason code, String reason) {
        return with("blockCode", code.code()).with("blockedReason", reason);
    }

    /** The recorded block reason; null when none was recorded (a detail from before reasons were typed). */
    public BlockReason blockReason() {
        return BlockReason.ofCode(text("blockCode"));
    }

    public PhaseDetail withValidation(ValidationResult v) {
        ObjectNode copy = node.deepCopy();
        ObjectNode n = copy.putObject("validation");
        n.put("expectedRows", v.expectedRows());
        n.put("actualRows", v.actualRows());
        n.put("nullKeys", v.nullKeys());
        n.put("duplicateKeys", v.duplicateKeys());
        if (v.duplicatesRuledOutBy() != null) {
            n.put("duplicatesRuledOutBy", v.duplicatesRuledOutBy());
        }
        n.put("passed", v.passed());
        return new PhaseDetail(copy);
    }

    /**
     * The read-back gate's record (ADR 0036): which check ran ({@code content} or {@code counts}), whether it
     * passed, its own seconds, and a note (why only counts, or what differed).
     */
    public PhaseDetail withContentCheck(String check, boolean passed, double seconds, String note) {
        ObjectNode copy = node.deepCopy();
        ObjectNode n = copy.putObject("contentCheck");
        n.put("check", check);
        n.put("passed", passed);
        n.put("seconds", Math.round(seconds * 100) / 100.0);
        if (note != null) {
            n.put("note", bounded(note));
        }
        return new PhaseDetail(copy);
    }

    /** The read-back gate's record, or null before validation recorded one. */
    public ContentCheckRecord contentCheck() {
        JsonNode n = node.get("contentCheck");
        if (n == null || !n.isObject()) {
            return null;
        }
        return new ContentCheckRecord(n.path("check").asText(), n.path("passed").asBoolean(), n.path("seconds").asDouble(),
                n.hasNonNull("note") ? n.get("note").asText() : null);
    }

    /** See {@link #withContentCheck}. */
    public record ContentCheckRecord(String check, boolean passed, double seconds, String note) {
    }

    /** The pre-flight verdict the campaign started with, as the status shows it (bounded findings, true counts). */
    public PhaseDetail withPreflight(PreflightResult r) {
        ObjectNode copy = node.deepCopy();
        copy.set("preflight", JSON.valueToTree(PreflightStatus.of(r)));
        return new PhaseDetail(copy);
    }

    /** The recorded verdict; null before preparation. */
    public PreflightStatus preflight() {
        JsonNode n = node.get("preflight");
        if (n == null || n.isNull()) {
            return null;
        }
        try {
            return JSON.treeToValue(n, PreflightStatus.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the ledger's pre-flight evidence cannot be read: " + e.getMessage(), e);
        }
    }

    public String preflightResult() {
        PreflightStatus p = preflight();
        return p == null ? null : p.getResult();
    }

    public String preflightSkippedBy() {
        PreflightStatus p = preflight();
        return p == null ? null : p.getSkippedBy();
    }

    public PhaseDetail withCoverage(SourceCoverage c) {
        ObjectNode copy = node.deepCopy();
        ObjectNode n = copy.putObject("coverage");
        if (c.uncoveredRows() == null) {
            n.putNull("uncoveredRows");
        } else {
            n.put("uncoveredRows", c.uncoveredRows());
        }
        n.put("basis", c.basis());
        return new PhaseDetail(copy);
    }

    public SourceCoverage coverage() {
        JsonNode n = node.get("coverage");
        if (n == null) {
            return null;
        }
        JsonNode rows = n.get("uncoveredRows");
        return new SourceCoverage(rows == null || rows.isNull() ? null : rows.asLong(), n.path("basis").asText(null));
    }

    /** The heap physical chunks are planned over, recorded once at preparation (ADR 0015). */
    public PhaseDetail withHeapExtent(HeapExtent extent) {
        ObjectNode copy = node.deepCopy();
        ObjectNode n = copy.putObject("heap");
        n.put("blocks", extent.blocks());
        n.put("storage", extent.storage());
        return new PhaseDetail(copy);
    }

    /** Null before preparation, and for key-range campaigns. */
    public HeapExtent heapExtent() {
        JsonNode n = node.get("heap");
        if (n == null || !n.path("blocks").canConvertToLong() || !n.path("storage").isTextual()) {
            return null;
        }
        return new HeapExtent(n.path("blocks").asLong(), n.path("storage").asText());
    }

    /** What the chunk row estimates of preparation rest on ({@code none: ...} when there are none). */
    public PhaseDetail withRowsEstimateBasis(String basis) {
        return with("rowsEstimate", basis);
    }

    /** Null for a campaign prepared before estimates, or one whose estimate failed (then it says {@code none: ...}). */
    public String rowsEstimateBasis() {
        String basis = text("rowsEstimate");
        return basis == null || basis.startsWith("none") ? null : basis;
    }

    /** The source reads predicted at preparation (ADR 0055): a handful of numbers and the bounded reason. */
    public PhaseDetail withReadCost(SourceReadCost cost) {
        ObjectNode copy = node.deepCopy();
        ObjectNode n = copy.putObject("sourceReads");
        n.put("tablePages", cost.tablePages());
        n.put("pagesVisited", cost.pagesVisited());
        n.put("chunks", cost.chunks());
        n.put("largestChunkPages", cost.largestChunkPages());
        n.put("reason", bounded(cost.reason()));
        return new PhaseDetail(copy);
    }

    /** Null for a campaign prepared before reads were predicted. */
    public SourceReadCost readCost() {
        JsonNode n = node.get("sourceReads");
        if (n == null || !n.isObject()) {
            return null;
        }
        return new SourceReadCost(n.path("tablePages").asLong(-1), n.path("pagesVisited").asLong(-1),
                n.path("chunks").asInt(), n.path("largestChunkPages").asLong(-1), n.path("reason").asText(""));
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
                n.path("nullKeys").asLong(), n.path("duplicateKeys").asLong(),
                n.hasNonNull("duplicatesRuledOutBy") ? n.get("duplicatesRuledOutBy").asText() : null);
    }

    public String json() {
        return node.toString();
    }
}
