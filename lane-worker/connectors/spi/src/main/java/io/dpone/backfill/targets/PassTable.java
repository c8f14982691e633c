package io.dpone.backfill.targets;

import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.core.plan.ChunkPlan;

import java.util.List;

/**
 * The published table a reconciliation pass writes (issue 38), under the target's names.
 *
 * @param columns     the load columns, target and source names in the same order (the order changed rows stream in)
 * @param key         the campaign's unique key under the target's names
 * @param chunkColumn the plan's chunk column under the target's name (null for a physical plan)
 * @param stateSchema where the ledger, the pass receipts and the queue live
 * @param runKey      the campaign's run key
 */
public record PassTable(String schema, String table, LoadColumns columns, List<String> key, ChunkPlan plan,
                        String chunkColumn, String stateSchema, String runKey) {
    public PassTable {
        key = List.copyOf(key);
    }
}
