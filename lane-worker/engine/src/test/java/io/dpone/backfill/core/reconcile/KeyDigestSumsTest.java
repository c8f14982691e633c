package io.dpone.backfill.core.reconcile;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Digests summed in Java stay exact past 64 bits, and name only the buckets that differ. */
class KeyDigestSumsTest {
    @Test
    void sumsOfHashesStayExactWhereA64BitSumWouldWrapEitherWay() {
        KeyDigestSums sums = new KeyDigestSums();
        for (int i = 0; i < 5; i++) {
            sums.add(3, Long.MAX_VALUE);
            sums.add(3, Long.MIN_VALUE + 4095);
        }
        BigInteger expected = BigInteger.valueOf(Long.MAX_VALUE).multiply(BigInteger.valueOf(5))
                .add(BigInteger.valueOf(Long.MIN_VALUE + 4095).multiply(BigInteger.valueOf(5)));
        assertThat(sums.sum(3, 4095)).isEqualTo(expected);
        assertThat(sums.count(3, 4095)).isEqualTo(10);

        KeyDigestSums reported = new KeyDigestSums();
        reported.addDigest(3, 4095, 10, expected);
        assertThat(sums.differing(reported).isEmpty()).isTrue();
        reported.addDigest(3, 4095, 0, BigInteger.ONE);
        assertThat(sums.differing(reported).contains(3, 4095)).isTrue();
    }

    @Test
    void aPairOnlyOneSideHasDiffersAndEqualPairsDoNot() {
        KeyDigestSums left = new KeyDigestSums();
        KeyDigestSums right = new KeyDigestSums();
        long a = RecordKeyText.hash(List.of(1L));
        long b = RecordKeyText.hash(List.of(UUID.fromString("00000000-0000-0000-0000-000000000001")));
        left.add(0, a);
        right.add(0, a);
        left.add(1, b);
        RangeBuckets differing = left.differing(right);
        assertThat(differing.size()).isEqualTo(1);
        assertThat(differing.contains(1, RecordKeyText.bucket(b))).isTrue();
    }

    @Test
    void aKeyValueWithNoCanonicalTextIsRefusedNamingItsType() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RecordKeyText.of(List.of(1.5d)))
                .hasMessageContaining("Double");
        assertThat(RecordKeyText.of(java.util.Arrays.asList(null, "", "a b", -3))).isEqualTo("(,\"\",\"a b\",-3)");
    }
}
