package io.dpone.backfill.core.source;

import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.publish.TableShape;

/** The PostgreSQL source as the engine needs it: the XMin anchor and the table's shape. */
public interface SourceCatalog {
    /** {@code pg_snapshot_xmin(pg_current_snapshot())} as text: every change after it is left to incremental sync. */
    String captureAnchor();

    /** Revalidates a stored anchor before the handoff receipt is written. */
    AnchorCheck checkAnchor(String anchorXmin);

    TableShape shape(String schema, String table);

    /**
     * Source rows that no chunk of the plan covers: for {@code uuid} and {@code integer} chunks, rows whose chunk
     * column is NULL. Not counted (and said so) when the catalog declares the column NOT NULL.
     */
    SourceCoverage uncoveredRows(String schema, String table, String chunkColumn);

    /**
     * The heap's size in blocks and its storage identity, for planning physical chunks at preparation. Throws
     * {@link HeapExtentRefusedException} when the table cannot be read in physical chunks exactly once.
     */
    HeapExtent heapExtent(String schema, String table);

    /**
     * Rows per chunk of {@code plan}, estimated cheaply for the ETA: from the source's statistics when they are
     * present and fresh, else from a sample whose cost does not grow with the table. Never a full count. Returns
     * {@link ChunkRowEstimates#none} (with the reason) rather than failing: an ETA must not stop a campaign.
     */
    ChunkRowEstimates estimateChunkRows(String schema, String table, ChunkPlan plan);

    /**
     * The source pages the chunks of {@code plan} are predicted to visit, against the table's pages (ADR 0055): from
     * the source's own statistics and the plan its server picks for a chunk's query, never by reading the table. An
     * unresolved physical plan is cut over the heap as it is now. Returns {@link SourceReadCost#unknown} (with the
     * reason) rather than failing: a prediction must not stop a campaign.
     */
    default SourceReadCost readCost(String schema, String table, ChunkPlan plan) {
        return SourceReadCost.unknown("this source does not predict its reads");
    }
}
