package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.targets.mssql.publish.MssqlSwapAccess.Permission;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The validation, fingerprint and permission statements as rendered, without a database. */
class MssqlShadowSqlTest {
    @Test
    void validationCountsRowsNullKeysAndSurplusDuplicatesInOneStatement() {
        assertThat(MssqlShadowValidator.sql("dbo", "t", List.of("k1", "k]2"))).isEqualTo(
                "SELECT (SELECT COUNT_BIG(*) FROM [dbo].[t]) AS row_count,"
                        + " (SELECT COUNT_BIG(*) FROM [dbo].[t] WHERE [k1] IS NULL OR [k]]2] IS NULL) AS null_keys,"
                        + " (SELECT COALESCE(SUM(d.n - 1), 0) FROM (SELECT COUNT_BIG(*) AS n FROM [dbo].[t]"
                        + " WHERE [k1] IS NOT NULL AND [k]]2] IS NOT NULL GROUP BY [k1], [k]]2] HAVING COUNT_BIG(*) > 1) AS d)"
                        + " AS duplicate_keys");
    }

    @Test
    void fingerprintHashesALengthPrefixedCanonicalTextOfEveryColumnWithPinnedStyles() {
        List<MssqlCatalogColumn> columns = List.of(
                column("id", "bigint"), column("ratio", "float"), column("at", "datetime2"), column("cash", "money"),
                column("blob", "varbinary"), column("note", "nvarchar"));

        String sql = MssqlTableFingerprint.sql("dbo", "t", columns);

        assertThat(sql).startsWith("SELECT COUNT_BIG(*) AS row_count, COALESCE(SUM(CAST(CONVERT(bigint,"
                + " SUBSTRING(HASHBYTES('SHA2_256', CONCAT(N'', ")
                .endsWith(")), 1, 8)) AS decimal(38,0))), 0) AS content_hash FROM [dbo].[t]")
                .contains("CASE WHEN [id] IS NULL THEN N'-' ELSE CONCAT(DATALENGTH(CONVERT(nvarchar(max), [id])), N':',"
                        + " CONVERT(nvarchar(max), [id])) END")
                .contains("CONVERT(nvarchar(max), [ratio], 3)")
                .contains("CONVERT(nvarchar(max), [at], 121)")
                .contains("CONVERT(nvarchar(max), [cash], 2)")
                .contains("CONVERT(nvarchar(max), [blob], 1)")
                .contains("CONVERT(nvarchar(max), [note])");
    }

    @Test
    void permissionsAreReissuedWithTheirStateAndColumnAndUnknownOnesRefused() {
        String target = "OBJECT::[dbo].[sh]";
        assertThat(MssqlSwapAccess.statement(new Permission("G", "SELECT", "reader", null), target))
                .isEqualTo("GRANT SELECT ON OBJECT::[dbo].[sh] TO [reader]");
        assertThat(MssqlSwapAccess.statement(new Permission("W", "UPDATE", "wri]ter", "note"), target))
                .isEqualTo("GRANT UPDATE ([note]) ON OBJECT::[dbo].[sh] TO [wri]]ter] WITH GRANT OPTION");
        assertThat(MssqlSwapAccess.statement(new Permission("D", "DELETE", "reader", null), target))
                .isEqualTo("DENY DELETE ON OBJECT::[dbo].[sh] TO [reader]");
        assertThatThrownBy(() -> MssqlSwapAccess.statement(new Permission("G", "SELECT; DROP TABLE x", "r", null), target))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theTargetLockNameIsLengthPrefixedSoNoTwoSchemaTablePairsShareIt() {
        assertThat(MssqlShadowTransaction.lockName("a.b", "c")).isNotEqualTo(MssqlShadowTransaction.lockName("a", "b.c"));
    }

    private static MssqlCatalogColumn column(String name, String type) {
        return new MssqlCatalogColumn(1, name, type, 8, 0, 0, true, null, false, null, null, null, null, null, false);
    }
}
