package io.dpone.backfill.targets.mssql.types;

import io.dpone.backfill.source.SpecialValue;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static io.dpone.backfill.targets.mssql.types.Columns.collated;
import static io.dpone.backfill.targets.mssql.types.Columns.source;
import static io.dpone.backfill.targets.mssql.types.Columns.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Each value guard at its boundary: the last value admitted and the first refused, on both sides where there are two. */
class MssqlTypeGuardsTest {
    private static final Supplier<String> KEY = () -> "id=42";

    private static MssqlColumnBinding binding(String sourceType, String targetType) {
        return MssqlTypeMap.check(source("c", sourceType), target("c", targetType)).binding();
    }

    private static void admitted(MssqlColumnBinding binding, Object value) {
        assertThatCode(() -> binding.bulkValue(value, KEY)).as(ShownValue.of(value)).doesNotThrowAnyException();
    }

    private static MssqlValueRejectedException refused(MssqlColumnBinding binding, Object value) {
        MssqlValueRejectedException e = catchThrowableOfType(MssqlValueRejectedException.class,
                () -> binding.bulkValue(value, KEY));
        assertThat((Object) e).as("refused: " + ShownValue.of(value)).isNotNull();
        return e;
    }

    @Test
    void dateLiesWithinYearOneAndYear9999() {
        MssqlColumnBinding date = binding("date", "date");

        admitted(date, LocalDate.of(1, 1, 1));
        admitted(date, LocalDate.of(9999, 12, 31));
        assertThat(refused(date, LocalDate.of(0, 12, 31)).rule()).isEqualTo("date must lie within 0001-01-01..9999-12-31");
        refused(date, LocalDate.of(10000, 1, 1));
        assertThat(refused(date, SpecialValue.POSITIVE_INFINITY).rule()).contains("no -infinity or infinity");
        refused(date, SpecialValue.NEGATIVE_INFINITY);
    }

    @Test
    void datetime2LiesWithinItsRangeToTheMicrosecond() {
        MssqlColumnBinding datetime2 = binding("timestamp", "datetime2(7)");

        admitted(datetime2, LocalDateTime.of(1, 1, 1, 0, 0));
        refused(datetime2, LocalDateTime.of(1, 1, 1, 0, 0).minusNanos(1000));
        admitted(datetime2, LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000));
        refused(datetime2, LocalDateTime.of(10000, 1, 1, 0, 0));
        refused(datetime2, SpecialValue.POSITIVE_INFINITY);
        refused(datetime2, SpecialValue.NEGATIVE_INFINITY);
    }

    @Test
    void datetimeStartsIn1753AndKeepsOnlyItsTicks() {
        MssqlColumnBinding datetime = binding("timestamp", "datetime");

        admitted(datetime, LocalDateTime.of(1753, 1, 1, 0, 0));
        assertThat(refused(datetime, LocalDateTime.of(1752, 12, 31, 23, 59, 59, 997_000_000)).rule())
                .isEqualTo("datetime must lie within 1753-01-01 00:00:00..9999-12-31 23:59:59.997");
        admitted(datetime, LocalDateTime.of(9999, 12, 31, 23, 59, 59, 997_000_000));
        refused(datetime, LocalDateTime.of(9999, 12, 31, 23, 59, 59, 998_000_000));
        admitted(datetime, LocalDateTime.of(2024, 2, 29, 12, 0, 0, 3_000_000));
        admitted(datetime, LocalDateTime.of(2024, 2, 29, 12, 0, 0, 7_000_000));
        admitted(datetime, LocalDateTime.of(2024, 2, 29, 12, 0, 0, 120_000_000));
        assertThat(refused(datetime, LocalDateTime.of(2024, 2, 29, 12, 0, 0, 4_000_000)).rule())
                .startsWith("datetime keeps 1/300 seconds");
        refused(datetime, LocalDateTime.of(2024, 2, 29, 12, 0, 0, 3_001_000));
    }

    @Test
    void datetimeoffsetOffsetsStopAtFourteenHours() {
        MssqlColumnBinding offset = binding("timestamptz", "datetimeoffset(7)");
        LocalDateTime noon = LocalDateTime.of(2024, 6, 1, 12, 0);

        admitted(offset, noon.atOffset(ZoneOffset.ofHours(14)));
        admitted(offset, noon.atOffset(ZoneOffset.ofHours(-14)));
        assertThat(refused(offset, noon.atOffset(ZoneOffset.ofHoursMinutes(14, 1))).rule())
                .isEqualTo("datetimeoffset offsets lie within -14:00..+14:00");
        refused(offset, noon.atOffset(ZoneOffset.ofHoursMinutes(-14, -1)));
    }

    @Test
    void datetimeoffsetLiesWithinTheRangeInUtcAndAtItsOffset() {
        MssqlColumnBinding offset = binding("timestamptz", "datetimeoffset(7)");

        admitted(offset, LocalDateTime.of(1, 1, 1, 0, 0).atOffset(ZoneOffset.UTC));
        refused(offset, LocalDateTime.of(1, 1, 1, 0, 0).minusNanos(1000).atOffset(ZoneOffset.UTC));
        admitted(offset, LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000).atOffset(ZoneOffset.UTC));
        refused(offset, LocalDateTime.of(10000, 1, 1, 0, 0).atOffset(ZoneOffset.UTC));
        // Local time in range, UTC before year one.
        refused(offset, LocalDateTime.of(1, 1, 1, 0, 30).atOffset(ZoneOffset.ofHours(1)));
        refused(offset, SpecialValue.NEGATIVE_INFINITY);
    }

    @Test
    void timestamptzIntoDatetime2IsCheckedAsUtc() {
        MssqlColumnBinding utc = binding("timestamptz", "datetime2(7)");

        admitted(utc, LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000).atOffset(ZoneOffset.UTC));
        refused(utc, LocalDateTime.of(10000, 1, 1, 0, 0).atOffset(ZoneOffset.UTC));
        refused(utc, SpecialValue.POSITIVE_INFINITY);
    }

    @Test
    void timeRefusesTwentyFourHundred() {
        MssqlColumnBinding time = binding("time", "time(7)");

        admitted(time, LocalTime.of(23, 59, 59, 999_999_000));
        admitted(time, LocalTime.MIDNIGHT);
        assertThat(refused(time, SpecialValue.END_OF_DAY).rule()).contains("24:00:00 has no counterpart");
    }

    @Test
    void floatsRefuseNanAndInfinities() {
        for (MssqlColumnBinding binding : new MssqlColumnBinding[] {binding("float4", "real"), binding("float4", "float")}) {
            assertThat(refused(binding, Float.NaN).rule()).isEqualTo("SQL Server float and real have no NaN, -Infinity or Infinity");
            refused(binding, Float.POSITIVE_INFINITY);
            refused(binding, Float.NEGATIVE_INFINITY);
            admitted(binding, Float.MAX_VALUE);
            admitted(binding, -0.0f);
        }
        MssqlColumnBinding float8 = binding("float8", "float");
        refused(float8, Double.NaN);
        refused(float8, Double.POSITIVE_INFINITY);
        refused(float8, Double.NEGATIVE_INFINITY);
        admitted(float8, Double.MAX_VALUE);
    }

    @Test
    void subnormalsAreRefusedWhereTheDocumentedRangeEnds() {
        MssqlColumnBinding real = binding("float4", "real");
        MssqlColumnBinding float8 = binding("float8", "float");

        admitted(real, Float.MIN_NORMAL);
        assertThat(refused(real, Float.MIN_VALUE).rule()).contains("no subnormal values");
        refused(real, -Math.nextDown(Float.MIN_NORMAL));
        admitted(float8, Double.MIN_NORMAL);
        refused(float8, Double.MIN_VALUE);
        // A subnormal float4 is a normal float8.
        admitted(binding("float4", "float"), Float.MIN_VALUE);
    }

    @Test
    void decimalHoldsPrecisionMinusScaleIntegerDigits() {
        MssqlColumnBinding decimal = binding("numeric", "decimal(5,2)");

        admitted(decimal, new BigDecimal("999.99"));
        admitted(decimal, new BigDecimal("-999.99"));
        assertThat(refused(decimal, new BigDecimal("1000.00")).rule()).isEqualTo("decimal(5,2) holds at most 3 integer digits");
        refused(decimal, new BigDecimal("-1000"));
        refused(decimal, new BigDecimal("1E+3"));
        admitted(decimal, new BigDecimal("0.00"));
        admitted(decimal, new BigDecimal("0E-20"));
    }

    @Test
    void decimalRefusesPlacesItWouldRound() {
        MssqlColumnBinding decimal = binding("numeric", "decimal(5,2)");

        admitted(decimal, new BigDecimal("0.01"));
        assertThat(refused(decimal, new BigDecimal("0.001")).rule()).contains("keeps 2 decimal places");
        refused(decimal, new BigDecimal("1.005"));
        // Trailing zeros carry no value: 1.500 is 1.50 exactly.
        admitted(decimal, new BigDecimal("1.500"));
    }

    @Test
    void numericRefusesNanAndInfinitiesEvenWhenConstrained() {
        for (MssqlColumnBinding binding : new MssqlColumnBinding[] {binding("numeric", "decimal(38,10)"),
                binding("numeric(5,2)", "decimal(5,2)")}) {
            assertThat(refused(binding, SpecialValue.NAN).rule()).isEqualTo("SQL Server decimal has no NaN, -Infinity or Infinity");
            refused(binding, SpecialValue.POSITIVE_INFINITY);
            refused(binding, SpecialValue.NEGATIVE_INFINITY);
        }
    }

    @Test
    void nvarcharCountsUtf16CodeUnits() {
        MssqlColumnBinding nvarchar = binding("text", "nvarchar(3)");
        String grin = "\uD83D\uDE00";

        admitted(nvarchar, "abc");
        admitted(nvarchar, "éé€");
        admitted(nvarchar, "a" + grin);
        assertThat(refused(nvarchar, "abcd").rule()).startsWith("nvarchar(3) holds 3 UTF-16 code units");
        refused(nvarchar, "ab" + grin);
        refused(nvarchar, grin + grin);
    }

    @Test
    void utf8VarcharCountsBytes() {
        MssqlColumnBinding varchar = MssqlTypeMap.check(source("c", "text"),
                collated("c", "varchar(4)", "Latin1_General_100_CI_AS_SC_UTF8")).binding();

        admitted(varchar, "aéb");
        admitted(varchar, "\uD83D\uDE00");
        admitted(varchar, "€a");
        refused(varchar, "aébc");
        refused(varchar, "a\uD83D\uDE00");
        refused(varchar, "€€");
    }

    @Test
    void codePageVarcharTakesAsciiOnly() {
        MssqlColumnBinding varchar = MssqlTypeMap.check(source("c", "text"),
                collated("c", "varchar(4)", "SQL_Latin1_General_CP1_CI_AS")).binding();

        admitted(varchar, "abcd");
        refused(varchar, "abcde");
        assertThat(refused(varchar, "é").rule()).contains("ASCII text only");
        admitted(varchar, "\u007f");
        refused(varchar, "\u0080");
    }

    @Test
    void varbinaryCountsBytes() {
        MssqlColumnBinding varbinary = binding("bytea", "varbinary(2)");

        admitted(varbinary, new byte[2]);
        assertThat(refused(varbinary, new byte[3]).rule()).isEqualTo("varbinary(2) holds 2 bytes");
        admitted(binding("bytea", "varbinary(max)"), new byte[100_000]);
    }

    @Test
    void aNotNullTargetRefusesNullAndANullableOneKeepsIt() throws Exception {
        MssqlColumnBinding notNull = MssqlTypeMap.check(source("c", "int4"), Columns.notNull("c", "int")).binding();

        assertThat(refused(notNull, null).rule()).isEqualTo("the target column is NOT NULL");
        assertThat(binding("int4", "int").bulkValue(null, KEY)).isNull();
        assertThat(binding("numeric", "decimal(5,2)").bulkValue(null, KEY)).isNull();
    }

    @Test
    void aRefusalNamesColumnKeyRuleAndACutValue() {
        MssqlColumnBinding nvarchar = binding("text", "nvarchar(3)");
        String document = "x".repeat(500);

        MssqlValueRejectedException e = refused(nvarchar, document);

        assertThat(e.column()).isEqualTo("c");
        assertThat(e.rowKey()).isEqualTo("id=42");
        assertThat(e.shownValue()).isEqualTo("'" + "x".repeat(79) + "... (502 characters)");
        assertThat(e.getSQLState()).isEqualTo("22000");
        assertThat(e.getMessage()).isEqualTo("column \"c\" (text -> nvarchar(3) NULL), row id=42: value " + e.shownValue()
                + " is refused: " + e.rule());
    }

    @Test
    void bytesAreShownInHexAndCut() {
        MssqlValueRejectedException e = refused(binding("bytea", "varbinary(2)"), new byte[] {1, 2, (byte) 0xff});

        assertThat(e.shownValue()).isEqualTo("\\x0102ff");
        assertThat(ShownValue.of(new byte[100])).endsWith("... (100 bytes)").startsWith("\\x0000");
    }

    @Test
    void theRowKeyIsComputedOnlyForARefusal() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        MssqlColumnBinding nvarchar = binding("text", "nvarchar(3)");

        nvarchar.bulkValue("abc", () -> "k" + calls.incrementAndGet());
        assertThat(calls).hasValue(0);
        catchThrowableOfType(MssqlValueRejectedException.class, () -> nvarchar.bulkValue("abcd", () -> "k" + calls.incrementAndGet()));
        assertThat(calls).hasValue(1);
    }

    @Test
    void aCutNeverSplitsASupplementaryCharacter() {
        String text = "a".repeat(78) + "\uD83D\uDE00" + "tail";

        assertThat(ShownValue.of(text)).startsWith("'" + "a".repeat(78) + "...");
    }

    @Test
    void offsetDateTimeOfTheDecoderIsUtc() {
        // The decoder delivers timestamptz at offset zero; the offset guard exists for any other producer.
        admitted(binding("timestamptz", "datetimeoffset(7)"), OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC));
    }
}
