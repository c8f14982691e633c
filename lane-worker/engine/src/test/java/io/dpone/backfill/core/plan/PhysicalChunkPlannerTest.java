package io.dpone.backfill.core.plan;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.ChunkSpec;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Physical plans (ADR 0015): block ranges that cover every block number from 0 up, without gap or overlap, the
 * last open-ended for growth; the same inputs always give the same plan; before preparation there are no bounds.
 */
class PhysicalChunkPlannerTest {
    private static final long SEED = 0x0b10c5L;
    private static final int CASES = 300;

    private static ChunkSpec physicalSpec(int buckets) {
        ChunkSpec s = new ChunkSpec();
        s.setKind(ChunkKind.PHYSICAL);
        s.setBuckets(buckets);
        return s;
    }

    @Test
    void blockRangesCoverEveryBlockFromZeroUpExactlyOnceWithTheGivenCount() {
        Random random = new Random(SEED);
        for (int c = 0; c < CASES; c++) {
            int buckets = 1 + random.nextInt(ChunkSpec.MAX_BUCKETS);
            long blocks = random.nextInt(4) == 0 ? random.nextInt(buckets + 1) : (long) (random.nextDouble() * 0xFFFF_FFFEL);
            String label = buckets + " buckets over " + blocks + " blocks";
            ChunkPlan plan = ChunkPlanner.physical(buckets, blocks);
            List<ChunkRange> chunks = plan.chunks();
            assertThat(chunks).as(label).hasSize(buckets);
            assertThat(chunks.get(0).lowerInclusive()).as(label + " starts at block 0").isEqualTo(BigInteger.ZERO);
            assertThat(chunks.get(buckets - 1).upperExclusive()).as(label + " last range open for growth").isNull();
            for (int i = 1; i < buckets; i++) {
                assertThat(chunks.get(i).lowerInclusive()).as(label + " no gap or overlap at " + i)
                        .isEqualTo(chunks.get(i - 1).upperExclusive());
                assertThat(chunks.get(i).lowerInclusive()).as(label + " ranges rise at " + i)
                        .isGreaterThanOrEqualTo(chunks.get(i - 1).lowerInclusive());
            }
            for (long block : new long[]{0, blocks / 3, Math.max(0, blocks - 1), blocks, blocks + 1_000_000}) {
                BigInteger b = BigInteger.valueOf(block);
                assertThat(chunks.stream().filter(r -> r.contains(b)).count()).as(label + " block " + block).isEqualTo(1);
            }
        }
    }

    @Test
    void rangesSplitTheMeasuredBlocksEvenly() {
        ChunkPlan plan = ChunkPlanner.physical(4, 10);
        assertThat(plan.chunks()).extracting(ChunkRange::lowerInclusive, ChunkRange::upperExclusive).containsExactly(
                org.assertj.core.groups.Tuple.tuple(BigInteger.ZERO, BigInteger.valueOf(2)),
                org.assertj.core.groups.Tuple.tuple(BigInteger.valueOf(2), BigInteger.valueOf(5)),
                org.assertj.core.groups.Tuple.tuple(BigInteger.valueOf(5), BigInteger.valueOf(7)),
                org.assertj.core.groups.Tuple.tuple(BigInteger.valueOf(7), null));
        assertThat(plan.boundText(plan.chunk(2).lowerInclusive())).isEqualTo("5");
    }

    @Test
    void theSameBucketsAndBlocksAlwaysGiveTheSamePlan() {
        assertThat(ChunkPlanner.physical(512, 65_375)).isEqualTo(ChunkPlanner.physical(512, 65_375));
        assertThat(ChunkPlanner.resolve(physicalSpec(64), new HeapExtent(9000, "1/2")))
                .isEqualTo(ChunkPlanner.physical(64, 9000));
    }

    @Test
    void theSpecAlonePlansUnresolvedChunksThatNameOnlyTheirCount() {
        ChunkPlan unresolved = ChunkPlanner.plan(physicalSpec(16));
        assertThat(unresolved.size()).isEqualTo(16);
        assertThat(unresolved.resolved()).isFalse();
        assertThat(unresolved.chunks()).allSatisfy(c -> assertThat(c.lowerInclusive()).isNull());
        assertThat(unresolved.column()).isNull();
        assertThat(ChunkPlanner.physical(16, 100).resolved()).isTrue();
        assertThat(CampaignIdentity.planDigest(unresolved)).isEqualTo(CampaignIdentity.planDigest(ChunkPlanner.plan(physicalSpec(16))))
                .isNotEqualTo(CampaignIdentity.planDigest(ChunkPlanner.plan(physicalSpec(17))));
    }

    @Test
    void lanesRefuseAPhysicalPlanWhenTheLedgerHoldsNoMeasuredHeap() {
        assertThatThrownBy(() -> ChunkPlanner.resolve(physicalSpec(8), null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not prepared");
    }

    @Test
    void keyRangeKindsResolveToTheirSpecPlan() {
        assertThat(ChunkPlanner.resolve(ChunkPlannerTest.uuidSpec(8), null)).isEqualTo(ChunkPlanner.plan(ChunkPlannerTest.uuidSpec(8)));
    }
}
