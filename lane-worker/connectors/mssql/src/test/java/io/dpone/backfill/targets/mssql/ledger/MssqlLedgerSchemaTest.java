package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.mssql.TsqlStatementRules;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The schema script as batches: placeholders filled for the schema, split on GO, every table guarded. */
class MssqlLedgerSchemaTest {
    @Test
    void theScriptSplitsIntoBatchesWithEveryPlaceholderFilled() {
        List<String> batches = MssqlLedgerSchema.batches("led'ger]x");

        assertThat(batches).hasSizeGreaterThan(8);
        assertThat(String.join("\n", batches)).doesNotContain("${").doesNotContain("\nGO\n")
                .contains("CREATE TABLE [led'ger]]x].campaign")
                .contains("OBJECT_ID(N'[led''ger]]x].campaign', N'U')")
                .contains("SCHEMA_ID(N'led''ger]x')");
    }

    /**
     * Issue 39: three replace calls in a row expanded a {@code ${schema}} inside the name again, inside the brackets,
     * where its {@code ]} was not doubled, and the text after it ran as T-SQL. Every batch, and the dynamic SQL its
     * {@code EXEC (N'...')} runs, must hold the name only as a whole bracketed identifier.
     */
    @Test
    void aSchemaNameHoldingAPlaceholderStaysOneIdentifierInEveryBatchAndItsDynamicSql() {
        String hostile = "a${schema} GRANT CONTROL TO public;DROP TABLE dbo.orders;--";
        for (String name : List.of(hostile, "x${schema_in_literal}]'; DROP TABLE t;--", "${schema_name_in_literal}")) {
            for (String batch : MssqlLedgerSchema.batches(name)) {
                assertIsOnlyCode(batch, name);
                for (String literal : TsqlStatementRules.literals(batch)) {
                    if (literal.startsWith("CREATE SCHEMA")) {
                        assertIsOnlyCode(literal, name);
                        assertThat(TsqlStatementRules.identifiers(literal)).containsExactly(name);
                    }
                }
            }
        }
        assertThat(String.join("\n", MssqlLedgerSchema.batches(hostile)))
                .contains("EXEC (N'CREATE SCHEMA [a${schema} GRANT CONTROL TO public;DROP TABLE dbo.orders;--]')");
    }

    private static void assertIsOnlyCode(String sql, String name) {
        assertThat(TsqlStatementRules.problems(sql)).as(sql).isEmpty();
        String code = TsqlStatementRules.code(sql).toUpperCase(java.util.Locale.ROOT);
        assertThat(code).as("code outside quotes of\n" + sql).doesNotContain("DROP").doesNotContain("GRANT")
                .doesNotContain("${");
        assertThat(TsqlStatementRules.identifiers(sql)).as(sql).allMatch(i -> !i.contains(name) || i.equals(name));
    }

    @Test
    void everyColumnAddedToAnExistingLedgerIsItsOwnAddUnderItsOwnGuard() {
        int adds = 0;
        for (String batch : MssqlLedgerSchema.batches("ledger")) {
            for (String statement : TsqlStatementRules.code(batch).split(";")) {
                int add = statement.indexOf(" ADD ");
                if (add >= 0) {
                    adds++;
                    assertThat(statement.substring(add).replaceAll("\\([^)]*\\)", "")).as(statement).doesNotContain(",");
                }
            }
        }
        assertThat(adds).isGreaterThan(15);
    }

    @Test
    void everyTableIsCreatedOnlyWhenMissingAndTheVersionRowOnlyOnce() {
        String script = String.join("\n", MssqlLedgerSchema.batches("ledger"));
        for (String table : new String[] {"ledger_version", "campaign", "chunk", "chunk_receipt",
                "publication_receipt", "rollback_receipt", "handoff_receipt"}) {
            assertThat(script).contains("IF OBJECT_ID(N'[ledger]." + table + "', N'U') IS NULL");
        }
        assertThat(script).contains("IF NOT EXISTS (SELECT 1 FROM [ledger].ledger_version WHERE version = 1)");
    }

    @Test
    void theDriverLockNameIsPerSchemaAndRunKeyAndFitsTheApplockLimit() {
        String runKey = "rk-" + "0123456789abcdef".repeat(4);
        String shortName = new MssqlLedgerText("ledger").driverLockName(runKey);
        String longName = new MssqlLedgerText("s".repeat(128)).driverLockName(runKey + "x".repeat(200));

        assertThat(shortName).isEqualTo("dpone-backfill-driver:6:ledger:" + runKey);
        assertThat(new MssqlLedgerText("ledger2").driverLockName(runKey)).isNotEqualTo(shortName);
        assertThat(longName).hasSizeLessThanOrEqualTo(io.dpone.backfill.targets.mssql.MssqlAppLock.MAX_NAME_LENGTH);
        assertThat(new MssqlLedgerText("s".repeat(128)).driverLockName(runKey + "x".repeat(199) + "y"))
                .as("hashed, not cut").isNotEqualTo(longName);
    }

    @Test
    void theLedgerSqlUsesNoRowLockHints() {
        MssqlLedgerText statements = new MssqlLedgerText("ledger");
        String all = String.join("\n", statements.claim(), statements.claimable(), statements.acquireLease(),
                statements.renewChunk(), statements.commitFromReceipt(), String.join("\n", MssqlLedgerSchema.batches("ledger")));
        assertThat(all.toUpperCase(java.util.Locale.ROOT)).doesNotContain("UPDLOCK").doesNotContain("READPAST")
                .doesNotContain("ROWLOCK").doesNotContain("HOLDLOCK").doesNotContain("NOLOCK");
        assertThat(statements.claim()).contains("SYSUTCDATETIME()").contains("epoch = ?");
    }
}
