package io.dpone.backfill.core.source;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.ChunkSpec;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.UuidKeys;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How column statistics spread a table's rows over the chunks of a plan. */
class KeyDistributionTest {
    private static ChunkPlan integers(int buckets, long lower, long upper) {
        ChunkSpec s = new ChunkSpec();
        s.setColumn("id");
        s.setKind(ChunkKind.INTEGER);
        s.setBuckets(buckets);
        s.setLowerBound(lower);
        s.setUpperBound(upper);
        return ChunkPlanner.plan(s);
    }

    private static List<BigInteger> bounds(long... values) {
        List<BigInteger> out = new ArrayList<>();
        for (long v : values) {
            out.add(BigInteger.valueOf(v));
        }
        return out;
    }

    @Test
    void anEvenHistogramSpreadsRowsEvenlyAndTheEstimatesSumToTheRowCount() {
        ChunkPlan plan = integers(4, 0, 400);

        List<Long> rows = KeyDistribution.fromStatistics(plan, 1_001, 0, bounds(0, 100, 200, 300, 400), List.of(), List.of());

        assertThat(rows).hasSize(4);
        assertThat(rows.stream().mapToLong(Long::longValue).sum()).isEqualTo(1_001);
        assertThat(rows).allSatisfy(r -> assertThat(r).isBetween(250L, 251L));
    }

    @Test
    void aSkewedHistogramPutsTheHeavyRangesRowsInItsChunk() {
        ChunkPlan plan = integers(4, 0, 400);
        // 10 equal-depth buckets; 7 of them are inside [100, 200): 70% of the rows are keyed there.
        List<BigInteger> b = bounds(0, 50, 100, 114, 128, 142, 157, 171, 185, 200, 300);

        List<Long> rows = KeyDistribution.fromStatistics(plan, 10_000, 0, b, List.of(), List.of());

        assertThat(rows.get(1)).isEqualTo(7_000);
        assertThat(rows.get(0)).isEqualTo(2_000);
        assertThat(rows.get(2)).isEqualTo(1_000);
        assertThat(rows.get(3)).isZero();
    }

    @Test
    void nullKeysBelongToNoChunkAndCommonValuesToTheirOwnChunk() {
        ChunkPlan plan = integers(2, 0, 200);

        List<Long> rows = KeyDistribution.fromStatistics(plan, 1_000, 0.1, bounds(0, 200), bounds(150), List.of(0.5));

        assertThat(rows).containsExactly(200L, 700L); // 40% spread evenly, 50% at key 150, 10% NULL
    }

    @Test
    void uuidHistogramsUseTheSameArithmeticOnUnsigned128BitKeys() {
        ChunkSpec s = new ChunkSpec();
        s.setColumn("id");
        s.setKind(ChunkKind.UUID);
        s.setBuckets(2);
        ChunkPlan plan = ChunkPlanner.plan(s);
        List<BigInteger> b = List.of(UuidKeys.fromText("00000000-0000-0000-0000-000000000000"),
                UuidKeys.fromText("40000000-0000-0000-0000-000000000000"),
                UuidKeys.fromText("ffffffff-ffff-ffff-ffff-ffffffffffff"));

        List<Long> rows = KeyDistribution.fromStatistics(plan, 1_000, 0, b, List.of(), List.of());

        // Half the rows below 0x40..., the other half spread over [0x40..., 0xff...]: a third of that above 0x80...
        assertThat(rows.get(0)).isBetween(665L, 668L);
        assertThat(rows.get(1)).isBetween(332L, 335L);
    }

    @Test
    void aSampleScalesItsCountsByTheShareOfTheTableItRead() {
        assertThat(KeyDistribution.fromSample(new long[] {10, 0, 3}, 0.01)).containsExactly(1_000L, 0L, 300L);
    }
}
