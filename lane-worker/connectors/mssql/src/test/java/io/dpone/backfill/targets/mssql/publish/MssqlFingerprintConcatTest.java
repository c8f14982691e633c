package io.dpone.backfill.targets.mssql.publish;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 24, why 4: the fingerprint's row text is one CONCAT over every column, and CONCAT takes at least 2 and at
 * most 254 arguments (MicrosoftDocs sql-docs, docs/t-sql/functions/concat-transact-sql.md: "requires at least two
 * arguments, and no more than 254 arguments"). Every CONCAT call in the rendered statement is counted, for tables of
 * 1 to 1024 columns (SQL Server's limit for a table without sparse columns).
 */
class MssqlFingerprintConcatTest {

    @ParameterizedTest(name = "{0} columns")
    @ValueSource(ints = {1, 2, 253, 254, 255, 507, 508, 1024})
    void everyConcatCallTakesTwoTo254ArgumentsAndEveryColumnIsHashedOnce(int columns) {
        String sql = MssqlTableFingerprint.sql("dbo", "wide", columns(columns, 5));

        List<Integer> arguments = concatArgumentCounts(sql);

        assertThat(arguments).isNotEmpty().allSatisfy(n -> assertThat(n).isBetween(2, MssqlConcat.MAX_ARGUMENTS));
        for (int c = 0; c < columns; c++) {
            assertThat(occurrences(sql, "CASE WHEN [c" + pad(c, 5) + "] IS NULL")).as("column " + c).isEqualTo(1);
        }
    }

    @Test
    void upTo253ColumnsTheStatementIsTheSingleCallItAlwaysWas() {
        List<MssqlCatalogColumn> columns = columns(253, 3);
        String parts = String.join(", ", columns.stream().map(MssqlTableFingerprint::part).toList());

        assertThat(MssqlTableFingerprint.sql("dbo", "t", columns)).contains("HASHBYTES('SHA2_256', CONCAT(N'', " + parts + ")), 1, 8)");
    }

    @Test
    void nestedCallsKeepTheColumnOrder() {
        String sql = MssqlTableFingerprint.sql("dbo", "t", columns(600, 3));

        List<Integer> positions = IntStream.range(0, 600).map(c -> sql.indexOf("CASE WHEN [c" + pad(c, 3) + "]")).boxed().toList();
        assertThat(positions).isSorted().doesNotContain(-1);
    }

    @Test
    void identifiersAreBoundedBySqlServersLimitOf128Characters() {
        // sysname is nvarchar(128) (docs/relational-databases/databases/database-identifiers.md).
        String longest = "n".repeat(128);
        assertThat(MssqlTableFingerprint.sql("dbo", longest, List.of(column(longest)))).contains("[" + longest + "]");
        assertThatThrownBy(() -> MssqlTableFingerprint.sql("dbo", "t", List.of(column("n".repeat(129)))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1-128 characters");
    }

    /** A rowversion column (reconciliation needs one, ADR 0056) prints as hex through binary(8), the type it is. */
    @Test
    void aRowversionColumnIsFingerprintedAsItsEightBytesInHex() {
        MssqlCatalogColumn version = new MssqlCatalogColumn(1, "v", "timestamp", 8, 0, 0, false, null, false, null, null,
                null, null, null, false);
        assertThat(MssqlTableFingerprint.part(version)).contains("CONVERT(nvarchar(max), CONVERT(binary(8), [v]), 1)");
    }

    /** The number of top-level arguments of every CONCAT( call, skipping N'...' literals and [...] names. */
    static List<Integer> concatArgumentCounts(String sql) {
        List<Integer> counts = new ArrayList<>();
        int from = 0;
        while ((from = sql.indexOf("CONCAT(", from)) >= 0) {
            int depth = 0;
            int arguments = 1;
            int i = from + "CONCAT".length();
            for (; i < sql.length(); i++) {
                char c = sql.charAt(i);
                if (c == '\'') {
                    i = sql.indexOf('\'', i + 1);
                    while (i + 1 < sql.length() && sql.charAt(i + 1) == '\'') {
                        i = sql.indexOf('\'', i + 2);
                    }
                } else if (c == '[') {
                    i = sql.indexOf(']', i + 1);
                    while (i + 1 < sql.length() && sql.charAt(i + 1) == ']') {
                        i = sql.indexOf(']', i + 2);
                    }
                } else if (c == '(') {
                    depth++;
                } else if (c == ')') {
                    if (--depth == 0) {
                        break;
                    }
                } else if (c == ',' && depth == 1) {
                    arguments++;
                }
            }
            counts.add(arguments);
            from += "CONCAT(".length();
        }
        return counts;
    }

    private static List<MssqlCatalogColumn> columns(int count, int digits) {
        return IntStream.range(0, count).mapToObj(c -> column("c" + pad(c, digits))).toList();
    }

    private static MssqlCatalogColumn column(String name) {
        return new MssqlCatalogColumn(1, name, "nvarchar", 20, 0, 0, true, null, false, null, null, null, null, null, false);
    }

    private static String pad(int n, int digits) {
        return String.format("%0" + digits + "d", n);
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            count++;
        }
        return count;
    }
}
