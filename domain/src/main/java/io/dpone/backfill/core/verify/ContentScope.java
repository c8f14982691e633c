package io.dpone.backfill.core.verify;

import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.HeapExtent;

import java.util.List;

/**
 * What a read-back of a loaded table reads, and how: the table, its loaded columns and digest key in the order the
 * lanes digested them, the plan whose chunks the rows fall in, the row encoding the lanes used, and for a physical
 * plan the heap extent and XMin anchor preparation recorded (to read the source's chunks as the lanes did).
 */
public record ContentScope(String schema, String table, List<String> columns, List<String> keyColumns, ChunkPlan plan,
                           RowEncoding encoding, HeapExtent heap, String anchorXmin) {
    public ContentScope {
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
    }
}
