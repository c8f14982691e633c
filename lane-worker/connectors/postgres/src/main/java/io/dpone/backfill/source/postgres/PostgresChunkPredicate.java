package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.math.BigInteger;

/**
 * The WHERE predicate that selects one chunk's rows on the PostgreSQL source. It is inlined as literal text
 * because {@code COPY (SELECT ...) TO STDOUT} takes no bind parameters; the literals come only from the plan's
 * own numbers, never from user text. The same text is what the planner's coverage test evaluates.
 */
public final class PostgresChunkPredicate {
    private PostgresChunkPredicate() {
    }

    public static String render(ChunkPlan plan, ChunkRange chunk) {
        return render(plan, chunk, plan.kind().keyed() ? PostgresIdentifiers.quote(plan.column()) : null);
    }

    /**
     * The same range over {@code column}, an already quoted (and perhaps qualified) column expression: the chunk
     * column as another table names it (the published table, under the target's names).
     */
    public static String render(ChunkPlan plan, ChunkRange chunk, String column) {
        if (!plan.kind().keyed()) {
            throw new IllegalArgumentException("a physical chunk is a block range read under the XMin anchor rule:"
                    + " render it with PostgresHeapPredicate");
        }
        String lower = chunk.lowerInclusive() == null ? null : column + " >= " + literal(plan, chunk.lowerInclusive());
        String upper = chunk.upperExclusive() == null ? null : column + " < " + literal(plan, chunk.upperExclusive());
        if (lower != null && upper != null) {
            return lower + " AND " + upper;
        }
        if (lower != null) {
            return lower;
        }
        if (upper != null) {
            return upper;
        }
        // A single chunk covers the whole domain; NULL keys are excluded in every plan alike (doctor requires NOT NULL).
        return column + " IS NOT NULL";
    }

    /**
     * The number of the plan's range that holds the row, as an expression over {@code column} (already quoted): the
     * ranges are contiguous and ordered (ChunkPlanner), so {@code width_bucket} over their lower bounds numbers them in
     * one comparison search a row; "0" for a physical plan, one whole-table range. A NULL key has no range.
     */
    public static String rangeNumber(ChunkPlan plan, String column) {
        if (!plan.kind().keyed() || plan.chunks().size() == 1) {
            return "0";
        }
        StringBuilder lowers = new StringBuilder();
        for (int i = 1; i < plan.chunks().size(); i++) {
            lowers.append(i == 1 ? "" : ", ").append(literal(plan, plan.chunks().get(i).lowerInclusive()));
        }
        return "pg_catalog.width_bucket(" + column + ", ARRAY[" + lowers + "])";
    }

    private static String literal(ChunkPlan plan, BigInteger bound) {
        return plan.kind() == ChunkKind.UUID
                ? "'" + plan.boundText(bound) + "'::uuid"
                : "(" + bound + ")::bigint";
    }
}
