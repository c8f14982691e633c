package io.dpone.backfill.core.digest;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The canonical row encoding and the chunk digest it sums (ADR 0018), without a database. */
class ContentDigesterTest {
    private static ChunkDigest digestOf(List<Object[]> rows) {
        ContentDigester d = new ContentDigester(3, new int[]{0});
        for (Object[] row : rows) {
            for (Object v : row) {
                d.value(v);
            }
            d.endRow();
        }
        return d.digest();
    }

    @Test
    void rowHashIsMurmur3X64With128BitsAsGuavaComputesIt() {
        // Reference values from Guava's Hashing.murmur3_128() (bytes: h1 then h2, little-endian).
        assertHash("hello", "029bbd41b3a7d8cb191dae486a901e5b");
        assertHash("The quick brown fox jumps over the lazy dog", "6c1b07bc7bbc4be347939ac4a93c437a");
        assertHash("0123456789abcdef0", "75c0a58587ae24ebca283131b368fb73");
    }

    private static void assertHash(String text, String guavaHex) {
        byte[] data = text.getBytes(StandardCharsets.UTF_8);
        long[] out = new long[2];
        RowHash128.hash(data, 0, data.length, out);
        byte[] bytes = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(out[0]).putLong(out[1]).array();
        assertThat(HexFormat.of().formatHex(bytes)).isEqualTo(guavaHex);
    }

    @Test
    void theDigestDoesNotDependOnRowOrder() {
        Object[] a = {1L, "a", new BigDecimal("1.5")};
        Object[] b = {2L, "b", null};
        Object[] c = {3L, "c", new BigDecimal("-7")};
        assertThat(digestOf(List.of(a, b, c))).isEqualTo(digestOf(List.of(c, a, b)));
    }

    @Test
    void chunkDigestsAddUpToTheDigestOfAllTheirRows() {
        Object[] a = {1L, "a", BigDecimal.ONE};
        Object[] b = {2L, "b", BigDecimal.TEN};
        assertThat(digestOf(List.<Object[]>of(a)).plus(digestOf(List.<Object[]>of(b)))).isEqualTo(digestOf(List.of(a, b)));
    }

    @Test
    void oneChangedValueChangesTheRowSumButNotTheKeySum() {
        ChunkDigest loaded = digestOf(List.<Object[]>of(new Object[]{1L, "a", BigDecimal.ONE}));
        ChunkDigest tampered = digestOf(List.<Object[]>of(new Object[]{1L, "a", BigDecimal.TEN}));
        assertThat(tampered).isNotEqualTo(loaded);
        assertThat(tampered.sameKeys(loaded)).isTrue();
    }

    @Test
    void integersOfEveryWidthAreOneFamilyAndTextIsAnother() {
        ContentDigester d = new ContentDigester(1, new int[]{0});
        assertThat(single(d, (short) 7)).isEqualTo(single(d, 7)).isEqualTo(single(d, 7L));
        assertThat(single(d, "7")).isNotEqualTo(single(d, 7L));
    }

    @Test
    void numericsEqualInValueAreEqualWhateverTheirScale() {
        ContentDigester d = new ContentDigester(1, new int[]{0});
        assertThat(single(d, new BigDecimal("1.50"))).isEqualTo(single(d, new BigDecimal("1.5")));
        assertThat(single(d, new BigDecimal("0.000"))).isEqualTo(single(d, BigDecimal.ZERO));
        assertThat(single(d, new BigDecimal("100"))).isEqualTo(single(d, new BigDecimal("1E+2")));
        assertThat(single(d, new BigDecimal("1.5"))).isNotEqualTo(single(d, new BigDecimal("15")));
    }

    @Test
    void aNumericFromItsDigitsDigestsLikeTheSameBigDecimal() {
        ContentDigester d = new ContentDigester(1, new int[]{0});
        long[][] cases = {{150, 2}, {-150, 2}, {0, 3}, {1, -4}, {123456789012345678L, 5}, {-1, 0}, {-128, 0}, {127, 0},
                {255, 1}, {Long.MIN_VALUE / 10, 3}, {10_000_000, 0}};
        for (long[] c : cases) {
            d.reset();
            d.numeric(c[0], (int) c[1]);
            d.endRow();
            assertThat(d.digest()).as(c[0] + "e-" + c[1]).isEqualTo(single(d, BigDecimal.valueOf(c[0], (int) c[1])));
        }
    }

    @Test
    void aTimestampWithTimeZoneIsItsInstantWhateverTheOffset() {
        ContentDigester d = new ContentDigester(1, new int[]{0});
        OffsetDateTime utc = OffsetDateTime.of(2024, 3, 1, 10, 0, 0, 123_456_000, ZoneOffset.UTC);
        assertThat(single(d, utc)).isEqualTo(single(d, utc.withOffsetSameInstant(ZoneOffset.ofHoursMinutes(5, 30))));
        assertThat(single(d, utc)).isNotEqualTo(single(d, utc.toLocalDateTime()));
        assertThat(single(d, LocalDateTime.of(2024, 3, 1, 10, 0))).isEqualTo(single(d, LocalDateTime.of(2024, 3, 1, 10, 0)));
    }

    @Test
    void nullIsNotTheEmptyString() {
        ContentDigester d = new ContentDigester(1, new int[]{0});
        assertThat(single(d, null)).isNotEqualTo(single(d, ""));
    }

    @Test
    void fieldsAreLengthPrefixedSoShiftingCharactersBetweenColumnsChangesTheRow() {
        ContentDigester d = new ContentDigester(2, new int[]{0});
        d.value("ab");
        d.value("c");
        d.endRow();
        ChunkDigest first = d.digest();
        d.reset();
        d.value("a");
        d.value("bc");
        d.endRow();
        assertThat(d.digest()).isNotEqualTo(first);
    }

    @Test
    void theWireFormRoundTripsAndAReceiptWithoutOneIsNull() {
        ChunkDigest digest = digestOf(List.<Object[]>of(new Object[]{1L, "a", BigDecimal.ONE}));
        assertThat(digest.wire()).startsWith("v1:1:");
        assertThat(ChunkDigest.fromWire(digest.wire())).isEqualTo(digest);
        assertThat(ChunkDigest.fromWire(null)).isNull();
        assertThatThrownBy(() -> ChunkDigest.fromWire("v9:1:00:00")).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Receipts outlive the build that wrote them (a campaign resumed or verified after an upgrade), so the encoding
     * must not move: every family, NULL, and rows longer than the digester's first buffer, pinned to the digest the
     * byte-by-byte encoder of earlier builds computed.
     */
    @Test
    void theDigestOfEveryFamilyIsTheOneEarlierBuildsStoredInTheirReceipts() {
        ContentDigester d = new ContentDigester(8, new int[]{2, 0});
        String longText = "ü".repeat(700);
        Object[][] rows = {
            {1L, (short) -2, 3, null, new BigDecimal("12.50"), new BigDecimal("-0.0001"),
                new BigInteger("123456789012345678901234567890"), 1.5f},
            {2.25d, Double.NaN, true, false, "text ✓", UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e"),
                LocalDate.of(2026, 12, 2), LocalTime.of(23, 59, 59, 999_999_000)},
            {LocalDateTime.of(1999, 12, 31, 23, 59, 59), OffsetDateTime.of(2024, 2, 29, 12, 0, 0, 0, ZoneOffset.ofHours(-7)),
                Instant.ofEpochSecond(-86_400, 1000), new byte[]{0, 1, 2, (byte) 255}, longText,
                longText.getBytes(StandardCharsets.UTF_8), "", new byte[0]},
        };
        for (Object[] row : rows) {
            for (Object v : row) {
                d.value(v);
            }
            d.endRow();
        }
        d.numeric(-1234567890123400L, 6);
        d.numeric(0, 3);
        d.integer(Long.MIN_VALUE);
        d.special("POSITIVE_INFINITY");
        d.opaque(new byte[]{9, 8, 7}, 1, 2);
        d.float4(-0.0f);
        d.float8(Double.MAX_VALUE);
        d.nul();
        d.endRow();
        assertThat(d.digest().wire())
                .isEqualTo("v1:4:26c7f992193bb8668e30637df1c182fa:da3718c8b9840d83f0974fc513635b2e");
    }

    @Test
    void aDigestTableSumsRowsPerSlotAndInTotal() {
        DigestTable table = new DigestTable(2);
        ContentDigester d = new ContentDigester(1, new int[]{0});
        d.value(1L);
        d.endRow(table, 0);
        d.value(2L);
        d.endRow(table, 1);
        assertThat(table.digest(0)).isEqualTo(single(d, 1L));
        assertThat(table.total()).isEqualTo(single(d, 1L).plus(single(d, 2L)));
    }

    private static ChunkDigest single(ContentDigester d, Object value) {
        d.reset();
        d.value(value);
        d.endRow();
        return d.digest();
    }
}
