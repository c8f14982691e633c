package io.dpone.backfill.source;

import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.HeapExtent;

import java.util.List;

/**
 * What a chunk reader reads: {@code columns} of one source table, chunked by {@code plan}.
 *
 * @param heap       the physical extent preparation recorded, for a physical plan (ADR 0015); null otherwise
 * @param anchorXmin the snapshot anchor preparation recorded, for a physical plan; null otherwise
 * @param keyColumns the campaign's unique key (all among {@code columns}): each chunk's rows also yield their
 *                   content digest (ADR 0018); null: no digest
 */
public record ChunkReading(ChunkPlan plan, String schema, String table, List<String> columns, HeapExtent heap,
                           String anchorXmin, List<String> keyColumns) {
    public ChunkReading {
        columns = List.copyOf(columns);
        keyColumns = keyColumns == null ? null : List.copyOf(keyColumns);
    }
}
