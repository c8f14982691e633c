package io.dpone.backfill.cli.bench;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.source.postgres.PostgresChunkPredicate;
import io.dpone.backfill.source.postgres.PostgresChunkSource;
import io.dpone.backfill.source.postgres.PostgresHeapPredicate;
import io.dpone.backfill.source.postgres.PostgresSourceAdapter;
import io.dpone.backfill.source.SourceTable;

import java.math.BigInteger;
import java.sql.Connection;
import java.util.List;

/**
 * How the baseline arms read the source chunk by chunk: the campaign's own plan and the product's own predicates
 * (key ranges, or block ranges under the XMin anchor rule for physical chunks), so B1 and B2 read what S reads.
 */
final class SourceReads {
    private final ChunkPlan plan;
    private final HeapExtent heap;
    private final String anchor;

    SourceReads(ChunkPlan plan, HeapExtent heap, String anchor) {
        this.plan = plan;
        this.heap = heap;
        this.anchor = anchor;
    }

    ChunkPlan plan() {
        return plan;
    }

    /** The whole table as one range, for the single stream of B0. */
    SourceReads whole() {
        ChunkPlan one = plan.kind() == ChunkKind.PHYSICAL ? ChunkPlanner.physical(1, heap.blocks())
                : new ChunkPlan(plan.kind(), plan.column(), plan.lowerBound(), plan.upperBound(), List.of(new ChunkRange(0, null, null)));
        return new SourceReads(one, heap, anchor);
    }

    String predicate(ChunkRange range) {
        return plan.kind() == ChunkKind.PHYSICAL ? PostgresHeapPredicate.render(range, new BigInteger(anchor))
                : PostgresChunkPredicate.render(plan, range);
    }

    /** The bench table on the source, as a target's bulk load learns its columns. */
    SourceTable table(Connection source) {
        return new SourceTable(new PostgresSourceAdapter(), source, "public", BenchTable.NAME);
    }

    /** The lanes' own chunk reader, for a target that takes decoded values. */
    PostgresChunkSource chunkSource(Connection source, List<String> columns) {
        return plan.kind() == ChunkKind.PHYSICAL
                ? new PostgresChunkSource(source, plan, "public", BenchTable.NAME, columns, heap, anchor)
                : new PostgresChunkSource(source, plan, "public", BenchTable.NAME, columns);
    }
}
