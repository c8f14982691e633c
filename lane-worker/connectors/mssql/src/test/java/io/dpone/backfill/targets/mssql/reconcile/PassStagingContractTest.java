package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.source.SpecialValue;
import io.dpone.backfill.source.TypeFamily;
import io.dpone.backfill.targets.mssql.types.Columns;
import io.dpone.backfill.targets.mssql.types.DriverBulkRules;
import io.dpone.backfill.targets.mssql.types.MssqlColumn;
import io.dpone.backfill.targets.mssql.types.MssqlColumnBinding;
import io.dpone.backfill.targets.mssql.types.MssqlValueRejectedException;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a pass stages through the lanes' bulk copy: the source's text rows split and decoded into the lanes' Java
 * values, and every value the bindings emit for a published column, and for the staged tables' own columns, checked
 * against what mssql-jdbc's bulk copy and SQL Server accept for the metadata reported ({@link DriverBulkRules}: a
 * mismatch there was once our own "0xA7 invalid data length"). No server.
 */
class PassStagingContractTest {
    @Test
    void aCopyTextRowSplitsOnTabsWithNullsEmptiesAndEveryEscapeUndone() {
        byte[] row = "1\t\\N\t\ta\\tb\\nc\\\\d\t\\x41\\101\\v\t\\\\x00ff\tü\n".getBytes(StandardCharsets.UTF_8);
        assertThat(CopyTextFields.split(row)).containsExactly("1", null, "", "a\tb\nc\\d", "AA\u000B", "\\x00ff", "ü");
    }

    @Test
    void sourceTextDecodesToTheValuesTheLanesHandOver() {
        assertThat(PassColumns.decode(TypeFamily.INT16, "-32768")).isEqualTo((short) -32768);
        assertThat(PassColumns.decode(TypeFamily.INT32, "42")).isEqualTo(42);
        assertThat(PassColumns.decode(TypeFamily.INT64, "-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
        assertThat(PassColumns.decode(TypeFamily.DECIMAL, "12.30")).isEqualTo(new BigDecimal("12.30"));
        assertThat(PassColumns.decode(TypeFamily.DECIMAL, "NaN")).isEqualTo(SpecialValue.NAN);
        assertThat(PassColumns.decode(TypeFamily.FLOAT64, "-Infinity")).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(PassColumns.decode(TypeFamily.FLOAT32, "1.1")).isEqualTo(1.1f);
        assertThat(PassColumns.decode(TypeFamily.BOOLEAN, "t")).isEqualTo(true);
        assertThat((byte[]) PassColumns.decode(TypeFamily.BINARY, "\\x00ff10")).containsExactly(0, -1, 16);
        assertThat(PassColumns.decode(TypeFamily.UUID, "0a0b0c0d-0000-4000-8000-00000000000f"))
                .isEqualTo(UUID.fromString("0a0b0c0d-0000-4000-8000-00000000000f"));
        assertThat(PassColumns.decode(TypeFamily.TIME, "24:00:00")).isEqualTo(SpecialValue.END_OF_DAY);
        assertThat(PassColumns.decode(TypeFamily.TIMESTAMP_TZ, "2024-01-01 10:00:00.123456+05:30"))
                .isEqualTo(OffsetDateTime.of(2024, 1, 1, 4, 30, 0, 123_456_000, ZoneOffset.UTC));
        assertThat(PassColumns.decode(TypeFamily.TIMESTAMP_TZ, "2024-01-01 10:00:00+00"))
                .isEqualTo(OffsetDateTime.of(2024, 1, 1, 10, 0, 0, 0, ZoneOffset.UTC));
        assertThat(PassColumns.decode(TypeFamily.TIMESTAMP_TZ, "1900-01-01 00:00:00-00:09:21"))
                .isEqualTo(OffsetDateTime.of(1900, 1, 1, 0, 9, 21, 0, ZoneOffset.UTC));
        // A timestamptz loaded into datetime2 arrives with its offset; the lanes wrote its UTC wall time.
        assertThat(PassColumns.decode(TypeFamily.TIMESTAMP, "2024-06-30 23:59:59.5-02"))
                .isEqualTo(LocalDateTime.of(2024, 7, 1, 1, 59, 59, 500_000_000));
        assertThat(PassColumns.decode(TypeFamily.TIMESTAMP, "2024-06-30 23:59:59")).isEqualTo(LocalDateTime.of(2024, 6, 30, 23, 59, 59));
        assertThat(PassColumns.decode(TypeFamily.DATE, "-infinity")).isEqualTo(SpecialValue.NEGATIVE_INFINITY);
        assertThat(PassColumns.decode(TypeFamily.TEXT, null)).isNull();
    }

    @Test
    void everyValueStagedIntoAPublishedColumnMatchesTheBulkMetadataReportedForIt() throws Exception {
        Object[][] cases = {
                {"smallint", TypeFamily.INT16, "-7"}, {"int", TypeFamily.INT32, "2147483647"},
                {"bigint", TypeFamily.INT64, "-1"}, {"decimal(12,2)", TypeFamily.DECIMAL, "9999999999.99"},
                {"real", TypeFamily.FLOAT32, "3.25"}, {"float", TypeFamily.FLOAT64, "1e300"},
                {"bit", TypeFamily.BOOLEAN, "f"}, {"nvarchar(20)", TypeFamily.TEXT, "Grüße ✓ 🚀"},
                {"nvarchar(max)", TypeFamily.TEXT, "x".repeat(9000)}, {"varchar(10)", TypeFamily.TEXT, "plain"},
                {"nchar(4)", TypeFamily.FIXED_TEXT, "ab  "}, {"varbinary(8)", TypeFamily.BINARY, "\\x0102"},
                {"varbinary(max)", TypeFamily.BINARY, "\\x" + "ab".repeat(9000)},
                {"uniqueidentifier", TypeFamily.UUID, "0a0b0c0d-0000-4000-8000-00000000000f"},
                {"date", TypeFamily.DATE, "2024-02-29"}, {"time(6)", TypeFamily.TIME, "23:59:59.999999"},
                {"datetime2(6)", TypeFamily.TIMESTAMP, "2024-01-01 00:00:00.000001"},
                {"datetime2(3)", TypeFamily.TIMESTAMP, "2024-01-01 00:00:00.123+01"},
                {"datetime", TypeFamily.TIMESTAMP, "2024-01-01 00:00:00.997"},
                {"datetimeoffset(6)", TypeFamily.TIMESTAMP_TZ, "2024-01-01 10:00:00.123456+05:30"}};
        for (Object[] c : cases) {
            MssqlColumn column = Columns.target("c", (String) c[0]);
            PassColumns bound = PassColumns.of("[dbo].[t]", List.of(column));
            assertThat(bound.family(0)).as((String) c[0]).isEqualTo(c[1]);
            MssqlColumnBinding binding = bound.bindings().get(0);
            Object emitted = binding.bulkValue(PassColumns.decode(bound.family(0), (String) c[2]), () -> "(1)");
            assertThat(DriverBulkRules.violations(binding.bulkColumn(), column, emitted)).as(c[0] + " " + c[2]).isEmpty();
        }
    }

    @Test
    void theStagedTablesOwnColumnsTakeTheirValuesAsReported() throws Exception {
        List<MssqlColumn> own = List.of(new MssqlColumn("dpone range", "int", 4, 10, 0, false, null),
                new MssqlColumn("dpone key", "nvarchar", MssqlColumn.MAX, 0, 0, false, null),
                new MssqlColumn("dpone key sha", "varbinary", 32, 0, 0, false, null),
                new MssqlColumn("dpone hash", "bigint", 8, 19, 0, false, null),
                new MssqlColumn("dpone row version", "varbinary", 8, 0, 0, false, null));
        PassColumns bound = PassColumns.of("the staged rows", own);
        String key = "(\"" + "k".repeat(5000) + " ü\")";
        List<Object[]> rows = List.of(new Object[] {0, key, PassKey.sha(key), Long.MIN_VALUE, new byte[8]},
                new Object[] {4095, "(1)", PassKey.sha("(1)"), 7L, new byte[0]});
        for (Object[] row : rows) {
            for (int i = 0; i < own.size(); i++) {
                MssqlColumnBinding binding = bound.bindings().get(i);
                Object emitted = binding.bulkValue(row[i], () -> "(1)");
                assertThat(DriverBulkRules.violations(binding.bulkColumn(), own.get(i), emitted))
                        .as(own.get(i).name() + " " + Arrays.deepToString(new Object[] {row[i]})).isEmpty();
            }
        }
    }

    @Test
    void aSourceValueThePublishedColumnCannotHoldIsRefusedNamingTheColumn() {
        MssqlColumn column = Columns.target("title", "nvarchar(3)");
        PassColumns bound = PassColumns.of("[dbo].[t]", List.of(column));
        assertThatThrownBy(() -> bound.bindings().get(0).bulkValue("four", () -> "(9)"))
                .isInstanceOf(MssqlValueRejectedException.class).hasMessageContaining("title");
    }

    @Test
    void aColumnTypeTheLoaderNeverWritesAndAKeyThatCannotBeDigestedAreRefusedUpFrontNamingThem() {
        assertThatThrownBy(() -> PassColumns.of("[dbo].[t]", List.of(new MssqlColumn("x", "xml", -1, 0, 0, true, null))))
                .hasMessageContaining("[dbo].[t]").hasMessageContaining("column x of type xml");
        assertThatThrownBy(() -> PassKey.of("[dbo].[t]", List.of(Columns.target("placed", "datetime2(6)"))))
                .hasMessageContaining("[dbo].[t]").hasMessageContaining("key column placed of type datetime2");
        assertThat(PassKey.of("[dbo].[t]", List.of(Columns.target("a", "int"), Columns.target("b", "nvarchar(10)"),
                Columns.target("c", "uniqueidentifier"))).columns()).containsExactly("a", "b", "c");
    }
}
