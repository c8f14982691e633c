package io.dpone.backfill.source.postgres.binary;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * float text as PostgreSQL 17 printed it for these values (checked against a real server; the IT compares 42,000
 * more). The first cases are where PostgreSQL's bound-exclusive Ryu and Java's Double.toString disagree.
 */
class PgBinaryFloatTextTest {
    @Test
    void midpointsBetweenDoublesAreNeverPrintedEvenWhenTheyWouldBeShorter() {
        assertThat(ShortestFloatText.ofDouble(1e23)).isEqualTo("9.999999999999999e+22");
        assertThat(ShortestFloatText.ofDouble(8.41e21)).isEqualTo("8.409999999999999e+21");
        assertThat(ShortestFloatText.ofDouble(2e23)).isEqualTo("1.9999999999999998e+23");
    }

    @Test
    void doublesUseFixedNotationForExponentsMinusFourToFourteen() {
        assertThat(ShortestFloatText.ofDouble(1e14)).isEqualTo("100000000000000");
        assertThat(ShortestFloatText.ofDouble(1e15)).isEqualTo("1e+15");
        assertThat(ShortestFloatText.ofDouble(1e22)).isEqualTo("1e+22");
        assertThat(ShortestFloatText.ofDouble(0.0001)).isEqualTo("0.0001");
        assertThat(ShortestFloatText.ofDouble(0.00001)).isEqualTo("1e-05");
        assertThat(ShortestFloatText.ofDouble(-4.35)).isEqualTo("-4.35");
        assertThat(ShortestFloatText.ofDouble(Double.MIN_VALUE)).isEqualTo("5e-324");
        assertThat(ShortestFloatText.ofDouble(Double.MAX_VALUE)).isEqualTo("1.7976931348623157e+308");
    }

    @Test
    void floatsUseFixedNotationForExponentsMinusFourToFive() {
        assertThat(ShortestFloatText.ofFloat(123456f)).isEqualTo("123456");
        assertThat(ShortestFloatText.ofFloat(1234567f)).isEqualTo("1.234567e+06");
        assertThat(ShortestFloatText.ofFloat(0.1f)).isEqualTo("0.1");
        assertThat(ShortestFloatText.ofFloat(Float.MIN_VALUE)).isEqualTo("1e-45");
        assertThat(ShortestFloatText.ofFloat(Float.MAX_VALUE)).isEqualTo("3.4028235e+38");
    }

    @Test
    void zeroesNanAndInfinitiesUsePostgresSpelling() {
        assertThat(ShortestFloatText.ofDouble(-0.0)).isEqualTo("-0");
        assertThat(ShortestFloatText.ofDouble(0.0)).isEqualTo("0");
        assertThat(ShortestFloatText.ofDouble(Double.NaN)).isEqualTo("NaN");
        assertThat(ShortestFloatText.ofDouble(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
        assertThat(ShortestFloatText.ofFloat(-0.0f)).isEqualTo("-0");
        assertThat(ShortestFloatText.ofFloat(Float.POSITIVE_INFINITY)).isEqualTo("Infinity");
    }
}
