package io.dpone.backfill.core.plan;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.ChunkSpec;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property tests over random bucket counts and bounds (seeded, so a failure names a reproducible case): every plan
 * covers the whole domain with contiguous ranges, and every key lands in exactly one chunk.
 */
class ChunkPlannerTest {
    private static final long SEED = 0x5eed_b4c1L;
    private static final int CASES = 300;

    static ChunkSpec uuidSpec(int buckets) {
        ChunkSpec s = new ChunkSpec();
        s.setColumn("id");
        s.setKind(ChunkKind.UUID);
        s.setBuckets(buckets);
        return s;
    }

    static ChunkSpec integerSpec(int buckets, long lower, long upper) {
        ChunkSpec s = new ChunkSpec();
        s.setColumn("id");
        s.setKind(ChunkKind.INTEGER);
        s.setBuckets(buckets);
        s.setLowerBound(lower);
        s.setUpperBound(upper);
        return s;
    }

    /** Contiguity: first open below, last open above, each upper bound is the next lower bound, strictly rising. */
    private static void assertContiguous(ChunkPlan plan, int buckets, String label) {
        List<ChunkRange> chunks = plan.chunks();
        assertThat(chunks).as(label).hasSize(buckets);
        assertThat(chunks.get(0).lowerInclusive()).as(label + " first chunk open below").isNull();
        assertThat(chunks.get(buckets - 1).upperExclusive()).as(label + " last chunk open above").isNull();
        for (int i = 0; i < buckets; i++) {
            assertThat(chunks.get(i).id()).isEqualTo(i);
            if (i > 0) {
                assertThat(chunks.get(i).lowerInclusive()).as(label + " no gap/overlap at " + i)
                        .isEqualTo(chunks.get(i - 1).upperExclusive());
            }
            if (i > 0 && i < buckets - 1) {
                assertThat(chunks.get(i).upperExclusive()).as(label + " non-empty chunk " + i)
                        .isGreaterThan(chunks.get(i).lowerInclusive());
            }
        }
    }

    private static void assertExactlyOneChunkHolds(ChunkPlan plan, BigInteger key, String label) {
        long holders = plan.chunks().stream().filter(c -> c.contains(key)).count();
        assertThat(holders).as(label + " key " + key).isEqualTo(1);
        assertThat(plan.locate(key).contains(key)).as(label + " locate " + key).isTrue();
    }

    @Test
    void uuidPlansCoverTheWhole128BitSpaceWithoutGapOrOverlap() {
        Random random = new Random(SEED);
        for (int c = 0; c < CASES; c++) {
            int buckets = 1 + random.nextInt(c % 10 == 0 ? ChunkSpec.MAX_BUCKETS : 600);
            ChunkPlan plan = ChunkPlanner.plan(uuidSpec(buckets));
            String label = "uuid buckets=" + buckets;
            assertContiguous(plan, buckets, label);
            List<BigInteger> keys = new java.util.ArrayList<>(List.of(BigInteger.ZERO, UuidKeys.SPACE.subtract(BigInteger.ONE)));
            for (int k = 0; k < 50; k++) {
                keys.add(new BigInteger(128, random));
            }
            for (ChunkRange chunk : plan.chunks()) {
                if (chunk.lowerInclusive() != null && keys.size() < 200) {
                    keys.add(chunk.lowerInclusive());
                    keys.add(chunk.lowerInclusive().subtract(BigInteger.ONE));
                }
            }
            for (BigInteger key : keys) {
                assertExactlyOneChunkHolds(plan, key, label);
            }
        }
    }

    @Test
    void uuidChunksAreEqualWithinOneKey() {
        ChunkPlan plan = ChunkPlanner.plan(uuidSpec(7));
        BigInteger smallest = null;
        BigInteger largest = null;
        for (ChunkRange c : plan.chunks()) {
            BigInteger lower = c.lowerInclusive() == null ? BigInteger.ZERO : c.lowerInclusive();
            BigInteger upper = c.upperExclusive() == null ? UuidKeys.SPACE : c.upperExclusive();
            BigInteger width = upper.subtract(lower);
            smallest = smallest == null || width.compareTo(smallest) < 0 ? width : smallest;
            largest = largest == null || width.compareTo(largest) > 0 ? width : largest;
        }
        assertThat(largest.subtract(smallest)).isLessThanOrEqualTo(BigInteger.ONE);
    }

    @Test
    void integerPlansCoverEveryKeyIncludingOutsideThePlannedBounds() {
        Random random = new Random(SEED + 1);
        for (int c = 0; c < CASES; c++) {
            long lower = random.nextInt(2_000_000) - 1_000_000L;
            long span = 1 + (long) random.nextInt(c % 3 == 0 ? 50 : 5_000_000);
            long upper = lower + span - 1;
            int buckets = 1 + random.nextInt((int) Math.min(span, 2_000));
            ChunkPlan plan = ChunkPlanner.plan(integerSpec(buckets, lower, upper));
            String label = "integer [" + lower + ", " + upper + "] buckets=" + buckets;
            assertContiguous(plan, buckets, label);
            List<BigInteger> keys = new java.util.ArrayList<>(List.of(
                    BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE),
                    BigInteger.valueOf(lower), BigInteger.valueOf(upper),
                    BigInteger.valueOf(lower - 1), BigInteger.valueOf(upper + 1)));
            for (int k = 0; k < 50; k++) {
                keys.add(BigInteger.valueOf(lower + (long) (random.nextDouble() * span)));
            }
            for (BigInteger key : keys) {
                assertExactlyOneChunkHolds(plan, key, label);
            }
        }
    }

    @Test
    void integerPlanAtTheExtremesOfBigintDoesNotOverflow() {
        ChunkPlan plan = ChunkPlanner.plan(integerSpec(4096, Long.MIN_VALUE, Long.MAX_VALUE));
        assertContiguous(plan, 4096, "full bigint range");
        assertExactlyOneChunkHolds(plan, BigInteger.valueOf(Long.MIN_VALUE), "min");
        assertExactlyOneChunkHolds(plan, BigInteger.valueOf(Long.MAX_VALUE), "max");
    }

    @Test
    void integerPlanWithOneKeyPerBucketCutsAtEachKey() {
        ChunkPlan plan = ChunkPlanner.plan(integerSpec(5, 10, 14));
        assertThat(plan.chunks()).extracting(ChunkRange::upperExclusive)
                .containsExactly(BigInteger.valueOf(11), BigInteger.valueOf(12), BigInteger.valueOf(13), BigInteger.valueOf(14), null);
    }

    @Test
    void planningIsDeterministic() {
        assertThat(ChunkPlanner.plan(uuidSpec(512))).isEqualTo(ChunkPlanner.plan(uuidSpec(512)));
        assertThat(ChunkPlanner.plan(integerSpec(100, 1, 1_000_000))).isEqualTo(ChunkPlanner.plan(integerSpec(100, 1, 1_000_000)));
    }

    @Test
    void uuidKeysRoundTripThroughText() {
        Random random = new Random(SEED + 2);
        for (int i = 0; i < 1000; i++) {
            BigInteger value = new BigInteger(128, random);
            assertThat(UuidKeys.fromText(UuidKeys.toText(value))).isEqualTo(value);
        }
        assertThat(UuidKeys.toText(BigInteger.ONE.shiftLeft(127))).isEqualTo("80000000-0000-0000-0000-000000000000");
    }
}
