package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.targets.mssql.TsqlStatementRules;
import io.dpone.backfill.targets.mssql.WorstCaseNames;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 36: how the swap moves another table's foreign key onto the incoming table, and the shadow build adds the live
 * table's own keys, on SQL Server, statement by statement, against sql-docs alter-table-transact-sql.md (ADD CONSTRAINT ... FOREIGN KEY ... REFERENCES ...
 * [ON DELETE {NO ACTION | CASCADE | SET NULL | SET DEFAULT}] [ON UPDATE ...] [NOT FOR REPLICATION];
 * {WITH CHECK | WITH NOCHECK}; {CHECK | NOCHECK} CONSTRAINT) and sys-foreign-keys-transact-sql.md (the catalog's
 * *_referential_action_desc values NO_ACTION, CASCADE, SET_NULL, SET_DEFAULT; is_disabled; is_not_trusted;
 * is_not_for_replication). Nothing here ran on SQL Server.
 */
class MssqlForeignKeyTest {
    private static final String TARGET = "[dbo].[invoice__bf_shadow]";

    private static MssqlForeignKey key(String onDelete, boolean nfr, boolean disabled, boolean notTrusted) {
        return new MssqlForeignKey("fk_line_invoice", "dbo", "invoice_line", List.of("invoice_id", "tenant"), 42, "dbo",
                "invoice", List.of("id", "tenant"), onDelete, "NO_ACTION", nfr, disabled, notTrusted);
    }

    @Test
    void aTrustedKeyIsDroppedAndAddedWithItsActionsCheckingEveryRowAgainstTheIncomingTable() {
        assertThat(MssqlInboundReferences.statements(key("CASCADE", false, false, false), TARGET)).containsExactly(
                "ALTER TABLE [dbo].[invoice_line] DROP CONSTRAINT [fk_line_invoice]",
                "ALTER TABLE [dbo].[invoice_line] ADD CONSTRAINT [fk_line_invoice] FOREIGN KEY"
                        + " ([invoice_id], [tenant]) REFERENCES [dbo].[invoice__bf_shadow] ([id], [tenant])"
                        + " ON DELETE CASCADE ON UPDATE NO ACTION");
    }

    @Test
    void aDisabledKeyStaysDisabledAnUntrustedOneUntrustedAndNotForReplicationIsKept() {
        assertThat(MssqlInboundReferences.statements(key("SET_NULL", false, true, true), TARGET)).hasSize(3)
                .last().isEqualTo("ALTER TABLE [dbo].[invoice_line] NOCHECK CONSTRAINT [fk_line_invoice]");
        List<String> untrusted = MssqlInboundReferences.statements(key("SET_DEFAULT", false, false, true), TARGET);
        assertThat(untrusted).hasSize(2);
        assertThat(untrusted.get(1)).startsWith("ALTER TABLE [dbo].[invoice_line] WITH NOCHECK ADD CONSTRAINT");
        assertThat(untrusted.get(1)).contains("WITH NOCHECK ADD").contains("ON DELETE SET DEFAULT");
        List<String> replication = MssqlInboundReferences.statements(key("NO_ACTION", true, false, true), TARGET);
        assertThat(replication.get(1)).endsWith(" ON DELETE NO ACTION ON UPDATE NO ACTION NOT FOR REPLICATION");
        assertThat(key("NO_ACTION", true, false, true).checked()).as("SQL Server never trusts an NFR key").isFalse();
    }

    @Test
    void orphansAreRowsWithEveryKeyColumnSetAndNoParent() {
        assertThat(key("NO_ACTION", false, false, false).orphans("[dbo].[invoice_line]", TARGET, false)).isEqualTo(
                "SELECT COUNT_BIG(*) FROM [dbo].[invoice_line] AS r WHERE r.[invoice_id] IS NOT NULL AND r.[tenant]"
                        + " IS NOT NULL AND NOT EXISTS (SELECT 1 FROM [dbo].[invoice__bf_shadow] AS t WHERE"
                        + " t.[id] = r.[invoice_id] AND t.[tenant] = r.[tenant])");
        assertThat(key("NO_ACTION", false, false, false).orphans("[dbo].[invoice_line]", TARGET, true))
                .startsWith("SELECT DISTINCT TOP (5) r.[invoice_id], r.[tenant] FROM").endsWith("ORDER BY r.[invoice_id], r.[tenant]");
    }

    @Test
    void everyStatementObeysTheGrammarForWorstCaseNames() {
        MssqlForeignKey worst = new MssqlForeignKey(WorstCaseNames.identifier("fk"), WorstCaseNames.identifier("s"),
                WorstCaseNames.identifier("t"), List.of(WorstCaseNames.identifier("c1"), WorstCaseNames.identifier("c2")),
                7, WorstCaseNames.identifier("s"), WorstCaseNames.identifier("p"),
                List.of(WorstCaseNames.identifier("r1"), WorstCaseNames.identifier("r2")), "CASCADE", "SET_NULL", true,
                true, false);
        String target = MssqlObjectNames.twoPart(WorstCaseNames.identifier("s"), WorstCaseNames.identifier("shadow"));
        List<String> all = new java.util.ArrayList<>(MssqlInboundReferences.statements(worst, target));
        all.add(worst.orphans(worst.qualifiedTable(), target, false));
        all.add(worst.orphans(worst.qualifiedTable(), target, true));
        all.addAll(worst.add(target, WorstCaseNames.identifier("fk_on_shadow"), worst.qualifiedReferenced()));
        all.add(MssqlForeignKeys.INBOUND);
        all.add(MssqlForeignKeys.OUTBOUND);
        assertThat(all).allSatisfy(sql -> assertThat(TsqlStatementRules.problems(sql)).as(sql).isEmpty());
    }

    @Test
    void anOutboundKeyIsAddedOnTheShadowUnderItsShadowNameAsTheLiveKeyIsTrustedOrNot() {
        MssqlForeignKey trusted = key("NO_ACTION", false, false, false);
        assertThat(trusted.add("[dbo].[invoice_line__bf_shadow]", "fk_line_invoice__bf_s", "[dbo].[invoice]")).containsExactly(
                "ALTER TABLE [dbo].[invoice_line__bf_shadow] ADD CONSTRAINT [fk_line_invoice__bf_s] FOREIGN KEY"
                        + " ([invoice_id], [tenant]) REFERENCES [dbo].[invoice] ([id], [tenant])"
                        + " ON DELETE NO ACTION ON UPDATE NO ACTION");
        assertThat(key("NO_ACTION", false, true, false).add("[dbo].[s]", "k", "[dbo].[invoice]"))
                .containsExactly("ALTER TABLE [dbo].[s] WITH NOCHECK ADD CONSTRAINT [k] FOREIGN KEY ([invoice_id], [tenant])"
                        + " REFERENCES [dbo].[invoice] ([id], [tenant]) ON DELETE NO ACTION ON UPDATE NO ACTION",
                        "ALTER TABLE [dbo].[s] NOCHECK CONSTRAINT [k]");
    }

    @Test
    void aKeyOfATableToItselfIsTheOnlySelfReference() {
        assertThat(new MssqlForeignKey("fk_reports_to", "dbo", "Employee", List.of("ReportsTo"), 1, "dbo", "Employee",
                List.of("EmployeeId"), "NO_ACTION", "NO_ACTION", false, false, false).selfReference()).isTrue();
        assertThat(key("NO_ACTION", false, false, false).selfReference()).isFalse();
    }

    @Test
    void anActionTheCatalogDoesNotDocumentIsRefused() {
        assertThat(MssqlForeignKey.action("SET_NULL")).isEqualTo("SET NULL");
        assertThatThrownBy(() -> MssqlForeignKey.action("RESTRICT")).hasMessageContaining("RESTRICT");
    }
}
