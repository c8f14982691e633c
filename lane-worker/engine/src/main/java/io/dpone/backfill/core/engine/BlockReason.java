package io.dpone.backfill.core.engine;

/**
 * Why the engine blocked a campaign, as a code each driver renders (the operator's Stalled condition reason, the
 * CLI's exit line); the message beside it says the particulars. Recorded in the phase detail, so a later step and
 * every driver read the same reason.
 */
public enum BlockReason {
    /** The source table or the reviewed live target does not exist. */
    TABLE_MISSING("TableMissing"),
    /** Target columns the target cannot fill itself are missing in the source. */
    TARGET_COLUMNS_MISSING("TargetColumnsMissing"),
    /** A shadow, backup or stamp belongs to another run (or to nobody): nothing of it was touched. */
    ARTIFACT_OWNERSHIP("ArtifactOwnership"),
    /** The source, the load table or the live target changed shape since preparation. */
    SCHEMA_DRIFT("SchemaDrift"),
    /** The live target's content changed since preparation: publication would hide those writes. */
    LIVE_TARGET_WRITTEN("LiveTargetWritten"),
    /** Exact validation of the loaded table failed, or source rows are covered by no chunk. */
    VALIDATION_FAILED("ValidationFailed"),
    /**
     * What the target stored in the shadow differs from what the lanes sent (ADR 0036): a value converted wrongly on
     * the way in. Nothing was published; the shadow is kept for diagnosis.
     */
    CONTENT_MISMATCH("ContentMismatch"),
    /**
     * Rows of another table reference, by a foreign key, keys the validated shadow lacks: re-pointed at the published
     * table the key would not hold. Nothing was published; the message names the key, the count and a sample.
     */
    FOREIGN_KEY_ORPHANS("ForeignKeyOrphans"),
    /** The XMin anchor can no longer start incremental sync. */
    ANCHOR_UNUSABLE("AnchorUnusable"),
    /** The source cannot be read in physical chunks exactly once (ADR 0015): the message says why. */
    PHYSICAL_UNSUPPORTED("PhysicalChunksUnsupported"),
    /** The ledger lacks a record the phase requires (a receipt, a baseline): it was changed outside the engine. */
    LEDGER_INCOMPLETE("LedgerIncomplete");

    private final String code;

    BlockReason(String code) {
        this.code = code;
    }

    /** The CamelCase reason Kubernetes conditions and Events use. */
    public String code() {
        return code;
    }

    /** The recorded code back to the reason; null for a detail written before reasons were recorded. */
    public static BlockReason ofCode(String code) {
        for (BlockReason r : values()) {
            if (r.code.equals(code)) {
                return r;
            }
        }
        return null;
    }
}
