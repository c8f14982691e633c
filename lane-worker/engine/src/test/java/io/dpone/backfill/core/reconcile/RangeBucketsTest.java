package io.dpone.backfill.core.reconcile;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RangeBucketsTest {
    @Test
    void numbersEachPairByItsRangeThenItsBucketSoAQueryCanComputeTheSameNumberFromAKey() {
        RangeBuckets buckets = new RangeBuckets();
        buckets.add(2, 7);
        buckets.add(0, KeyBuckets.COUNT - 1);
        buckets.add(2, 7);
        assertThat(buckets.size()).isEqualTo(2);
        assertThat(buckets.numbers().boxed()).containsExactly(KeyBuckets.COUNT - 1, 2 * KeyBuckets.COUNT + 7);
        assertThat(buckets.contains(2, 7)).isTrue();
        assertThat(buckets.contains(7, 2)).isFalse();
    }

    @Test
    void saysWhenMostBucketsDifferSoReadingEveryKeyCostsNoMoreThanFilteringThem() {
        RangeBuckets buckets = new RangeBuckets();
        for (int b = 0; b < KeyBuckets.COUNT / 2 - 1; b++) {
            buckets.add(0, b);
        }
        assertThat(buckets.most(1)).isFalse();
        buckets.add(0, KeyBuckets.COUNT - 1);
        assertThat(buckets.most(1)).isTrue();
        assertThat(buckets.most(2)).isFalse();
    }

    @Test
    void refusesABucketOutsideTheRange() {
        assertThatThrownBy(() -> new RangeBuckets().add(0, KeyBuckets.COUNT)).hasMessageContaining("no key bucket 4096");
    }
}
