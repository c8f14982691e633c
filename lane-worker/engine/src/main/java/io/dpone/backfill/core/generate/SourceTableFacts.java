package io.dpone.backfill.core.generate;

import io.dpone.backfill.core.publish.TableShape;

import java.util.List;

/**
 * What {@code backfill generate} reads of one source table: its shape, its primary key (empty when it has none) and
 * what sizes a plan: the key's kind when it is one integer or uuid column, the planner's row and page estimates,
 * and an integer key's lowest and highest value (null when the table is empty or the key is not an integer).
 */
public record SourceTableFacts(String name, TableShape shape, List<String> primaryKey, KeyKind keyKind, long rows,
                               long pages, Long minKey, Long maxKey) {
    /** The kind of a single-column primary key, as chunk kinds cut it. */
    public enum KeyKind { INTEGER, UUID, OTHER }

    public SourceTableFacts {
        primaryKey = List.copyOf(primaryKey);
    }
}
