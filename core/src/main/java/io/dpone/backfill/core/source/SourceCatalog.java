package io.dpone.backfill.core.source;

import io.dpone.backfill.core.target.TableShape;

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
}
