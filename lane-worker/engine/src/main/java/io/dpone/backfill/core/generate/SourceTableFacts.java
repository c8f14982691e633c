package io.dpone.backfill.core.generate;

import io.dpone.backfill.core.publish.TableShape;

import java.util.List;

/**
 * What {@code backfill generate} reads of one source table: its shape, its primary key (empty when it has none) and
 * what sizes a plan: the key's kind when it is one integer or uuid column, the planner's row and page estimates,
 * an integer key's lowest and highest value (null when the table is empty or the key is not an integer), and how
 * closely a single-column key's order follows the heap's, from -1 to 1 (null without statistics, issue 41).
 */
public record SourceTableFacts(String name, TableShape shape, List<String> primaryKey, KeyKind keyKind, long rows,
                               long pages, Long minKey, Long maxKey, Double keyCorrelation) {
    /** The kind of a single-column primary key, as chunk kinds cut it. */
    public enum KeyKind { INTEGER, UUID, OTHER }

    public SourceTableFacts {
        primaryKey = List.copyOf(primaryKey);
    }
}
