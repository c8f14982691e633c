package io.dpone.backfill.core.digest;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A canonical field reads back as a person writes the value, for every family, edges included. */
class CanonicalTextTest {
    @Test
    void everyFamilyReadsAsItsValue() {
        assertThat(texts(null, Long.MIN_VALUE, new BigDecimal("-12.340"), 1.5f, -0.0d, true, "Grüße",
                UUID.fromString("00000000-0000-0000-0000-000000000001"), LocalDate.of(1, 1, 1), LocalTime.of(23, 59, 59),
                LocalDateTime.of(9999, 12, 31, 23, 59, 59), Instant.parse("2024-03-31T01:30:00Z"), new byte[] {0, (byte) 0xff}))
                .containsExactly("NULL", "-9223372036854775808", "-12.34", "1.5", "-0.0", "true", "'Grüße'",
                        "00000000-0000-0000-0000-000000000001", "0001-01-01", "23:59:59", "9999-12-31T23:59:59",
                        "2024-03-31T01:30:00Z", "\\x00ff");
    }

    @Test
    void aDayOutsideTheCalendarStillPrints() {
        ContentDigester d = new ContentDigester(1, new int[] {0});
        List<String> out = new ArrayList<>();
        d.observe(row -> out.add(CanonicalText.of(row.field(0))));
        d.date(Long.MAX_VALUE / 2);
        d.endRow();
        assertThat(out).containsExactly("day " + Long.MAX_VALUE / 2 + " since 1970-01-01");
    }

    private static List<String> texts(Object... values) {
        ContentDigester d = new ContentDigester(values.length, new int[] {1});
        List<String> out = new ArrayList<>();
        d.observe(row -> {
            for (int c = 0; c < row.columns(); c++) {
                out.add(CanonicalText.of(row.field(c)));
            }
        });
        for (Object v : values) {
            d.value(v);
        }
        d.endRow();
        return out;
    }
}
