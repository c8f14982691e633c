package io.dpone.backfill.core.validation;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;

/** Requests are compared with limits by value, across suffixes, as the API server compares Quantities. */
class QuantitiesTest {
    @Test
    void quantitiesAreReadWithTheirDecimalOrBinarySuffix() {
        assertThat(Quantities.value("500m")).contains(new BigDecimal("0.500"));
        assertThat(Quantities.value("2")).contains(new BigDecimal("2"));
        assertThat(Quantities.value("1.5Gi").orElseThrow()).isEqualByComparingTo(BigDecimal.valueOf(1610612736L));
        assertThat(Quantities.value("1k").orElseThrow()).isEqualByComparingTo(BigDecimal.valueOf(1000));
    }

    @Test
    void textThatIsNoQuantityHasNoValueAndExceedsNothing() {
        assertThat(Quantities.value("1K")).isEmpty();
        assertThat(Quantities.value("lots")).isEmpty();
        assertThat(Quantities.value(null)).isEmpty();
        assertThat(Quantities.exceeds("1K", "1")).isFalse();
    }

    @Test
    void aRequestExceedsItsLimitOnlyByValue() {
        assertThat(Quantities.exceeds("1Gi", "512Mi")).isTrue();
        assertThat(Quantities.exceeds("512Mi", "1Gi")).isFalse();
        assertThat(Quantities.exceeds("1Gi", "1000M")).isTrue();
        assertThat(Quantities.exceeds("1000m", "1")).isFalse();
        assertThat(Quantities.exceeds("1500m", "1")).isTrue();
    }
}
