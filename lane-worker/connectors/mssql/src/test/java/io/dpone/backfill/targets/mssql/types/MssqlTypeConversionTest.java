package io.dpone.backfill.targets.mssql.types;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.TimeZone;
import java.util.UUID;

import static io.dpone.backfill.targets.mssql.types.Columns.source;
import static io.dpone.backfill.targets.mssql.types.Columns.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What getRowData hands the bulk copy for each pair, and what getColumnType/getPrecision/getScale report. */
class MssqlTypeConversionTest {

    private static Object bulk(String sourceType, String targetType, Object decoded) throws SQLException {
        return MssqlTypeMap.check(source("c", sourceType), target("c", targetType)).binding().bulkValue(decoded, () -> "k");
    }

    private static MssqlBulkColumn column(String sourceType, String targetType) {
        return MssqlTypeMap.check(source("c", sourceType), target("c", targetType)).binding().bulkColumn();
    }

    @Test
    void integersBecomeTheTargetsOwnJavaType() throws SQLException {
        // The driver casts INTEGER to Integer and BIGINT to Long: a Short would fail there.
        assertThat(bulk("int2", "smallint", (short) -32768)).isEqualTo((short) -32768);
        assertThat(bulk("int2", "int", (short) 7)).isEqualTo(7);
        assertThat(bulk("int2", "bigint", (short) 7)).isEqualTo(7L);
        assertThat(bulk("int4", "bigint", Integer.MIN_VALUE)).isEqualTo((long) Integer.MIN_VALUE);
        assertThat(bulk("int8", "decimal(19,0)", Long.MIN_VALUE)).isEqualTo(new BigDecimal("-9223372036854775808"));
        assertThat(bulk("int4", "decimal(12,2)", 5)).isEqualTo(new BigDecimal("5.00"));
    }

    @Test
    void decimalsCarryExactlyTheTargetScale() throws SQLException {
        assertThat(bulk("numeric(5,2)", "decimal(7,4)", new BigDecimal("1.23"))).isEqualTo(new BigDecimal("1.2300"));
        assertThat(bulk("numeric", "decimal(5,2)", new BigDecimal("1.500"))).isEqualTo(new BigDecimal("1.50"));
        assertThat(bulk("numeric", "decimal(5,2)", new BigDecimal("1E+2"))).isEqualTo(new BigDecimal("100.00"));
    }

    @Test
    void floatsWidenExactlyAndBooleansPassAsIs() throws SQLException {
        assertThat(bulk("float4", "real", 1.1f)).isEqualTo(1.1f);
        assertThat(bulk("float4", "float", 1.1f)).isEqualTo((double) 1.1f);
        assertThat(bulk("float8", "float", Math.PI)).isEqualTo(Math.PI);
        assertThat(bulk("bool", "bit", true)).isEqualTo(true);
    }

    @Test
    void textUuidAndBytes() throws SQLException {
        byte[] bytes = {1, 2, 3};
        assertThat(bulk("text", "nvarchar(max)", "x")).isEqualTo("x");
        assertThat(bulk("uuid", "uniqueidentifier", UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")))
                .isEqualTo("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
        assertThat(bulk("bytea", "varbinary(max)", bytes)).isSameAs(bytes);
    }

    @Test
    void temporalValuesBecomeTextTheServerReadsTheSameUnderAnyLanguage() throws SQLException {
        assertThat(bulk("date", "date", LocalDate.of(1, 1, 1))).isEqualTo("0001-01-01");
        assertThat(bulk("time", "time(7)", LocalTime.of(23, 59, 59, 999_999_000))).isEqualTo("23:59:59.9999990");
        assertThat(bulk("timestamp", "datetime2(7)", LocalDateTime.of(1582, 10, 10, 12, 0, 0, 1000)))
                .isEqualTo("1582-10-10 12:00:00.0000010");
        assertThat(bulk("timestamp", "datetime", LocalDateTime.of(2024, 2, 29, 12, 0, 0, 3_000_000)))
                .isEqualTo("2024-02-29T12:00:00.003");
        assertThat(bulk("timestamptz", "datetimeoffset(7)", OffsetDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000, ZoneOffset.UTC)))
                .isEqualTo("9999-12-31 23:59:59.9999990 +00:00");
        assertThat(bulk("timestamptz", "datetime2(7)", OffsetDateTime.of(2024, 1, 1, 1, 0, 0, 0, ZoneOffset.ofHours(2))))
                .isEqualTo("2023-12-31 23:00:00.0000000");
    }

    /**
     * Issue 24, why 1: mssql-jdbc 13.2.1 (SQLServerBulkCopy.getDestTypeFromSrcType / writeTypeInfo) declares a
     * temporal column of an ISQLServerBulkData as varchar(reported precision) and writes the text with its own length;
     * SQL Server refuses text longer than the declaration (4815). The text must carry the target's scale, no more.
     */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            time(0)        | time(0)           | 23:59:59
            time(3)        | time(3)           | 23:59:59.999
            time           | time(6)           | 23:59:59.999999
            timestamp(0)   | datetime2(0)      | 9999-12-31 23:59:59
            timestamp(2)   | datetime2(2)      | 9999-12-31 23:59:59.99
            timestamp      | datetime2(6)      | 9999-12-31 23:59:59.999999
            timestamptz(0) | datetimeoffset(0) | 9999-12-31 23:59:59 +00:00
            timestamptz(3) | datetimeoffset(3) | 9999-12-31 23:59:59.999 +00:00
            timestamptz    | datetimeoffset(6) | 9999-12-31 23:59:59.999999 +00:00
            timestamptz(1) | datetime2(1)      | 9999-12-31 23:59:59.9
            timestamptz    | datetime2(6)      | 9999-12-31 23:59:59.999999
            """)
    void temporalTextCarriesExactlyTheTargetsFractionalDigits(String sourceType, String targetType, String expected)
            throws SQLException {
        int digits = expected.contains(".") ? expected.replaceAll(".*\\.(\\d+).*", "$1").length() : 0;
        int nanos = digits == 0 ? 0 : 999_999_999 - 999_999_999 % (int) Math.pow(10, 9 - digits);
        Object decoded = switch (targetType.replaceAll("\\(.*", "")) {
            case "time" -> LocalTime.of(23, 59, 59, nanos);
            case "datetime2" -> sourceType.startsWith("timestamptz")
                    ? OffsetDateTime.of(9999, 12, 31, 23, 59, 59, nanos, ZoneOffset.UTC)
                    : LocalDateTime.of(9999, 12, 31, 23, 59, 59, nanos);
            default -> OffsetDateTime.of(9999, 12, 31, 23, 59, 59, nanos, ZoneOffset.UTC);
        };
        Object text = bulk(sourceType, targetType, decoded);

        assertThat(text).isEqualTo(expected);
        assertThat(((String) text).length()).isEqualTo(column(sourceType, targetType).precision());
    }

    @Test
    void aValueWithMoreDigitsThanTheTargetKeepsIsRefusedNotCut() {
        // A timestamp(3) source holds milliseconds; a value with more digits means the source lied: fail the chunk.
        MssqlColumnBinding binding = MssqlTypeMap.check(source("c", "timestamp(3)"), target("c", "datetime2(3)")).binding();

        assertThatThrownBy(() -> binding.bulkValue(LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1_500_000), () -> "(1)"))
                .isInstanceOf(MssqlValueRejectedException.class)
                .hasMessageContaining("the target keeps 3 fractional-second digits");
    }

    @Test
    void aWallTimeInTheJvmsDaylightSavingGapIsNotMoved() throws SQLException {
        TimeZone before = TimeZone.getDefault();
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("Europe/Berlin"));
            assertThat(bulk("timestamp", "datetime2(6)", LocalDateTime.of(2024, 3, 31, 2, 30))).isEqualTo("2024-03-31 02:30:00.000000");
        } finally {
            TimeZone.setDefault(before);
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            int2        | smallint          | 5       | 5          | 0
            int4        | int               | 4       | 10         | 0
            int8        | bigint            | -5      | 19         | 0
            numeric     | decimal(38,10)    | 3       | 38         | 10
            numeric     | numeric(12,3)     | 2       | 12         | 3
            float4      | real              | 7       | 24         | 0
            float8      | float             | 8       | 53         | 0
            bool        | bit               | -7      | 1          | 0
            text        | nvarchar(20)      | -9      | 20         | 0
            text        | nvarchar(max)     | -9      | 1073741823 | 0
            text        | varchar(30)       | 12      | 30         | 0
            text        | varchar(max)      | 12      | 2147483647 | 0
            uuid        | uniqueidentifier  | -145    | 36         | 0
            date        | date              | 91      | 10         | 0
            time        | time(7)           | 92      | 16         | 7
            time(0)     | time(0)           | 92      | 8          | 0
            timestamp   | datetime2(6)      | 93      | 26         | 6
            timestamp   | datetime          | -151    | 23         | 3
            timestamptz | datetimeoffset(7) | -155    | 34         | 7
            bytea       | varbinary(16)     | -3      | 16         | 0
            bytea       | varbinary(max)    | -3      | 2147483647 | 0
            """)
    void bulkColumnsDescribeTheTarget(String sourceType, String targetType, int jdbcType, int precision, int scale) {
        assertThat(column(sourceType, targetType)).isEqualTo(new MssqlBulkColumn("c", jdbcType, precision, scale));
    }

    @Test
    void theJdbcCodesAreTheDriversOwn() {
        assertThat(column("uuid", "uniqueidentifier").jdbcType()).isEqualTo(microsoft.sql.Types.GUID);
        assertThat(column("timestamptz", "datetimeoffset(7)").jdbcType()).isEqualTo(microsoft.sql.Types.DATETIMEOFFSET);
        assertThat(column("timestamp", "datetime").jdbcType()).isEqualTo(microsoft.sql.Types.DATETIME);
        assertThat(column("float8", "float").jdbcType()).isEqualTo(Types.DOUBLE);
    }
}
