package io.dpone.backfill.core.fault;

/**
 * The named points of the protocol where a crash test may stop a real process (SIGKILL it there, or SIGCONT it
 * later as a zombie). Each is fired by the code that owns the step, so every driver (CLI or operator) has the same
 * points. {@code chunkId} is -1 for campaign-level points.
 */
public enum FaultPoint {
    /** Lane: a chunk was claimed (epoch + 1, lease taken); its receipt has not been probed yet. */
    AFTER_CLAIM("after-claim"),
    /** Chunk commit: the receipt is inserted and 500 rows were streamed and flushed; the transaction is open. */
    MID_COPY("mid-copy"),
    /** Chunk commit: every row is loaded and counted; the fenced ledger update and the commit have not run. */
    BEFORE_COMMIT("before-commit"),
    /** Chunk commit: rows, receipt and ledger row are committed; the lane has not logged or claimed again. */
    AFTER_COMMIT("after-commit"),
    /** Engine: the Publishing step starts; the swap transaction has not begun. */
    BEFORE_PUBLISH("before-publish"),
    /**
     * Engine, Planned step: the anchor, the shadow, the table shapes and the chunk estimates are recorded; the fenced
     * move to Prepared has not run (the driver dies before preparation completes).
     */
    IN_PREPARE("in-prepare"),
    /**
     * Publisher, inside the publication transaction (every target adapter): live renamed to backup, shadow renamed
     * to live, stamps and the publication receipt written; the commit has not run.
     */
    IN_PUBLISH("in-publish"),
    /**
     * Engine, Publishing step: the publication transaction committed (swap and receipt); the fenced move to Published
     * and the XMin handoff have not run.
     */
    AFTER_PUBLISH("after-publish");

    private final String wireName;

    FaultPoint(String wireName) {
        this.wireName = wireName;
    }

    /** The name used in {@code BACKFILL_FAULT} ({@code point:chunk}). */
    public String wireName() {
        return wireName;
    }
}
