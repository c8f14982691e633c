package io.dpone.backfill.core.generate;

import io.dpone.backfill.core.campaign.LoadColumns;

import java.util.List;

/**
 * A source table paired with its target table: the columns that load, the proposed chunks, and its place in the
 * publication order (parents first) with the paired tables it must follow.
 *
 * @param cycle the other tables it references and that reference it back, directly or not; empty when none
 */
public record PairedTable(SourceTableFacts source, String target, LoadColumns columns, ChunkSizing chunks, int order,
                          List<String> after, List<String> cycle) {
    public PairedTable {
        after = List.copyOf(after);
        cycle = List.copyOf(cycle);
    }
}
