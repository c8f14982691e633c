package io.dpone.backfill.core.source;

import io.dpone.backfill.core.target.TableShape;

/** The PostgreSQL source as the engine needs it: the XMin anchor and the table's shape. */
public interface SourceCatalog {
    /** {@code pg_snapshot_xmin(pg_current_snapshot())} as text: every change after it is left to incremental sync. */
    String captureAnchor();

    /** Revalidates a stored anchor before the handoff receipt is written. */
    AnchorCheck checkAnchor(String anchorXmin);

    TableShape shape(String schema, String table);
}
