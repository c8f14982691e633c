package io.dpone.backfill.core.reconcile;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyBucketsTest {
    private static KeySetDigest d(long count, long sum) {
        return new KeySetDigest(count, BigInteger.valueOf(sum));
    }

    @Test
    void onlyTheBucketsWhoseKeysDifferAreNamedAnEmptyOneOnEitherSideIncluded() {
        KeyBuckets source = KeyBuckets.of(Map.of(1, d(3, 30), 7, d(1, -5), 4095, d(2, 9)));
        KeyBuckets target = KeyBuckets.of(Map.of(1, d(3, 30), 7, d(2, 11), 12, d(1, 4)));

        assertThat(source.differing(target)).containsExactly(7, 12, 4095);
        assertThat(target.differing(source)).containsExactly(7, 12, 4095);
        assertThat(source.differing(KeyBuckets.of(Map.of(1, d(3, 30), 7, d(1, -5), 4095, d(2, 9))))).isEmpty();
        assertThat(source.count()).isEqualTo(6);
    }

    @Test
    void aBucketOutsideTheHashsLowBitsIsRefused() {
        assertThatThrownBy(() -> KeyBuckets.of(Map.of(KeyBuckets.COUNT, d(1, 1)))).hasMessageContaining("outside 0..4095");
    }
}
