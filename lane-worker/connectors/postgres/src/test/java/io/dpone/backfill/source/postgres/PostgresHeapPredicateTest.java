package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.plan.HeapExtent;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The text of a physical chunk's predicate: TID bounds from the plan, the xmin bound from the anchor (ADR 0015). */
class PostgresHeapPredicateTest {
    private static final BigInteger ANCHOR = BigInteger.valueOf(7_345_001);

    @Test
    void aBoundedRangeSelectsItsBlocksAndOnlyVersionsOlderThanTheAnchor() {
        ChunkPlan plan = ChunkPlanner.physical(4, 10);
        assertThat(PostgresHeapPredicate.render(plan.chunk(1), ANCHOR))
                .isEqualTo("ctid >= '(2,0)'::tid AND ctid < '(5,0)'::tid AND xmin::text::bigint < 7345001");
    }

    @Test
    void theLastRangeIsOpenAboveSoGrowthIsRead() {
        ChunkPlan plan = ChunkPlanner.physical(4, 10);
        assertThat(PostgresHeapPredicate.render(plan.chunk(3), ANCHOR))
                .isEqualTo("ctid >= '(7,0)'::tid AND xmin::text::bigint < 7345001");
        assertThat(PostgresHeapPredicate.render(ChunkPlanner.physical(1, 0).chunk(0), ANCHOR))
                .isEqualTo("ctid >= '(0,0)'::tid AND xmin::text::bigint < 7345001");
    }

    @Test
    void anUnresolvedChunkIsNeverRenderedAsTheWholeTable() {
        ChunkRange unresolved = new ChunkRange(0, null, null);
        assertThatThrownBy(() -> PostgresHeapPredicate.render(unresolved, ANCHOR))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no block range");
    }

    @Test
    void anAnchorPastXidEpochZeroIsRefusedBecauseRawXminsWouldNotOrder() {
        ChunkRange chunk = ChunkPlanner.physical(2, 10).chunk(0);
        assertThatThrownBy(() -> PostgresHeapPredicate.render(chunk, BigInteger.ONE.shiftLeft(32)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("epoch-0");
    }

    @Test
    void theKeyRangeRendererRefusesAPhysicalPlan() {
        ChunkPlan plan = ChunkPlanner.physical(2, 10);
        assertThatThrownBy(() -> PostgresChunkPredicate.render(plan, plan.chunk(0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PostgresHeapPredicate");
    }

    @Test
    void aPhysicalChunkSourceNeedsTheRecordedHeapAndAnchor() {
        ChunkPlan plan = ChunkPlanner.physical(2, 10);
        assertThatThrownBy(() -> new PostgresChunkSource(null, plan, "public", "items", List.of("id")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("recorded at preparation");
        assertThatThrownBy(() -> new PostgresChunkSource(null, ChunkPlanner.plan(spec()), "public", "items", List.of("id"),
                new HeapExtent(10, "1/2"), "100")).isInstanceOf(IllegalArgumentException.class);
    }

    private static io.dpone.backfill.core.campaign.ChunkSpec spec() {
        io.dpone.backfill.core.campaign.ChunkSpec s = new io.dpone.backfill.core.campaign.ChunkSpec();
        s.setKind(io.dpone.backfill.core.campaign.ChunkKind.PHYSICAL);
        s.setBuckets(2);
        return s;
    }
}
