package io.dpone.backfill.core.verify;

import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.HeapExtent;

import java.util.List;

/**
 * What a read-back of a loaded table reads, and how: the table, its loaded columns paired with the source columns
 * that load them and the digest key (source names), in the order the lanes digested them, the plan whose chunks the
 * rows fall in, the row encoding the lanes used, and for a physical plan the heap extent and XMin anchor
 * preparation recorded (to read the source's chunks as the lanes did).
 */
public record ContentScope(String schema, String table, LoadColumns loaded, List<String> sourceKey, ChunkPlan plan,
                           RowEncoding encoding, HeapExtent heap, String anchorXmin) {
    public ContentScope {
        sourceKey = List.copyOf(sourceKey);
    }

    /** Loaded columns named the same on both sides. */
    public ContentScope(String schema, String table, List<String> columns, List<String> keyColumns, ChunkPlan plan,
                        RowEncoding encoding, HeapExtent heap, String anchorXmin) {
        this(schema, table, LoadColumns.same(columns), keyColumns, plan, encoding, heap, anchorXmin);
    }

    /** The loaded table's columns, in digest order. */
    public List<String> columns() {
        return loaded.target();
    }

    /** The digest key under the loaded table's names. */
    public List<String> keyColumns() {
        return loaded.targetKey(sourceKey);
    }

    public List<String> sourceColumns() {
        return loaded.source();
    }
}
