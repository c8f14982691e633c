package io.dpone.backfill.target.mssql.ledger;

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
        assertThat(longName).hasSizeLessThanOrEqualTo(io.dpone.backfill.target.mssql.MssqlAppLock.MAX_NAME_LENGTH);
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
