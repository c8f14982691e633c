package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 38 on PostgreSQL to SQL Server (ADR 0056), through the packaged CLI: a published table without a rowversion
 * column is refused up front, naming the table and the fix; once it has one, the source takes inserts, updates and
 * deletes and a pass brings the published table to the source row for row, deletes included; a row written into the
 * published table by hand (updated, or deleted) is queued, never overwritten, and converges once accepted; a pass
 * killed midway is finished by one more {@code reconcile}. Runs on the resolved T-SQL engine (SQL Server when
 * configured, Babelfish when BACKFILL_BABELFISH_DIST is set, else skipped by SqlServerTestEngine). Babelfish needs
 * its rowversion escape hatch and has no MIN_ACTIVE_ROWVERSION (src-docs/babelfish-gaps.md): the suite supplies the
 * function for Babelfish's rowversion (the writing transaction's id), the product's SQL stays SQL Server's.
 */
class ReconcileSqlServerIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TARGET_ROWS = "SELECT id, amount, title, paid, attrs, note FROM dbo.orders";
    private static final String SOURCE_ROWS = "SELECT id, amount, title, paid, attrs::text, note FROM public.orders";

    @TempDir
    Path dir;

    @Test
    void aPassMakesThePublishedTableEqualToTheSourceDeletesIncludedAndQueuesHandEditsUntilAccepted() throws Exception {
        SqlServerRoute route = new SqlServerRoute(dir, "orders_reconcile_v1", 3000, 8, 2, 10);
        System.out.println("ReconcileSqlServerIT runs on " + route.engine);
        route.cli(0, route.runArgs("run"));
        writeTheSource(route, 1);

        String refused = route.cli(1, route.withCampaign("reconcile"));
        assertThat(refused).contains("needs a rowversion column on [dbo].[orders]")
                .contains("ALTER TABLE [dbo].[orders] ADD [dpone_row_version] rowversion");
        assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.reconcile_pass")).as("nothing written").isZero();

        addRowVersion(route);
        String first = route.cli(0, route.withCampaign("reconcile"));
        assertThat(first).contains("reconciliation pass 1").contains("caught up");
        assertThat(targetRows(route, "")).as("deletes included").isEqualTo(sourceRows(route, ""));

        // Someone edits the published table by hand: a row the source changes next, one it does not, one deleted.
        long both = route.count("SELECT MIN(id) FROM dbo.orders WHERE id % 7 = 3 AND id % 11 <> 0");
        long handOnly = route.count("SELECT MIN(id) FROM dbo.orders WHERE id % 7 <> 3 AND id % 11 <> 0 AND id % 13 <> 0");
        long goneByHand = route.count("SELECT MAX(id) FROM dbo.orders WHERE id % 7 <> 3 AND id % 11 <> 0 AND id % 13 <> 0");
        try (Connection c = route.engine.connect(route.database); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE dbo.orders SET note = N'by hand' WHERE id IN (" + both + ", " + handOnly + ")");
            s.executeUpdate("DELETE FROM dbo.orders WHERE id = " + goneByHand);
        }
        route.source.execute("UPDATE public.orders SET note = 'changed again', amount = amount + 1 WHERE id % 7 = 3",
                "DELETE FROM public.orders WHERE id % 11 = 0",
                "INSERT INTO public.orders (id, amount, title, paid, note) SELECT 30000 + i, i, 'late ' || i, true, NULL"
                        + " FROM generate_series(1, 40) i");

        String second = route.cli(7, route.withCampaign("reconcile"));
        assertThat(second).contains("reconciliation pass 2").contains("3 key(s) waiting for a decision")
                .contains("(" + both + ")").contains("(" + handOnly + ")").contains("(" + goneByHand + ")")
                .contains("missing from the published table");
        String others = " WHERE id NOT IN (" + both + ", " + handOnly + ", " + goneByHand + ")";
        assertThat(targetRows(route, others)).as("every other row").isEqualTo(sourceRows(route, others));
        assertThat(route.lines("SELECT note FROM dbo.orders WHERE id IN (" + both + ", " + handOnly + ")"))
                .as("never overwritten").containsOnly("by hand");
        assertThat(route.count("SELECT COUNT_BIG(*) FROM dbo.orders WHERE id = " + goneByHand)).as("not restored").isZero();

        JsonNode status = JSON.readTree(route.cli(0, route.withCampaign("status", "--format", "json")).lines()
                .dropWhile(l -> !l.startsWith("{")).reduce("", (a, b) -> a + b + "\n"));
        JsonNode reconciliation = status.path("reconciliation");
        assertThat(reconciliation.path("queue").path("undecided").asLong()).isEqualTo(3);
        assertThat(reconciliation.path("caughtUp").asBoolean()).isFalse();
        assertThat(reconciliation.path("passes").get(0).path("deleted").asLong()).as("the source's deletes").isPositive();

        String accepted = route.cli(0, route.withCampaign("reconcile", "--accept", "(" + both + ")", "--accept",
                "(" + goneByHand + ")", "--keep", "(" + handOnly + ")"));
        assertThat(accepted).contains("reconciliation pass 3").contains("0 key(s) waiting").contains("caught up");
        String kept = " WHERE id <> " + handOnly;
        assertThat(targetRows(route, kept)).isEqualTo(sourceRows(route, kept));
        assertThat(route.lines("SELECT note FROM dbo.orders WHERE id = " + handOnly)).containsExactly("by hand");

        String again = route.cli(0, route.withCampaign("reconcile"));
        assertThat(again).contains("reconciliation pass 4").contains("caught up");
        assertThat(route.count("SELECT upserted + deleted + queued FROM backfill_state.reconcile_pass WHERE pass = 4"))
                .as("nothing changed since").isZero();
    }

    /**
     * Writes to the source during the load, then after it; SIGKILL in the middle of the pass, after some ranges
     * committed: one `reconcile` finishes it, and the table is exact.
     */
    @Test
    void writesDuringTheLoadAndAPassKilledMidwayEndExactAfterOneMoreReconcile() throws Exception {
        SqlServerRoute route = new SqlServerRoute(dir, "orders_reconcile_kill_v1", 4000, 8, 2, 3);
        // The source keeps taking writes while the lanes load it: the pass reads them from the load's anchor.
        int rounds = 0;
        try (LaunchedProcess run = LaunchedProcess.start(dir, route.env(), route.runArgs("run"))) {
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (route.committedChunks() < 8 && System.nanoTime() < deadline) {
                rounds++;
                route.source.execute("UPDATE public.orders SET note = 'during the load " + rounds + "' WHERE id % 97 = " + rounds,
                        "DELETE FROM public.orders WHERE id % 89 = " + rounds,
                        "INSERT INTO public.orders (id, amount, title, paid) SELECT 50000 + " + rounds + " * 10 + i, i,"
                                + " 'during the load', false FROM generate_series(1, 5) i");
                Thread.sleep(200);
            }
            assertThat(run.awaitExit(Duration.ofMinutes(5))).as(run.output()).isZero();
        }
        System.out.println("the source took " + rounds + " round(s) of writes during the load");
        addRowVersion(route);
        writeTheSource(route, 1);
        Map<String, String> env = route.env();
        env.put("BACKFILL_FAULT", "after-commit:3");
        try (LaunchedProcess killed = LaunchedProcess.start(dir, env, route.withCampaign("reconcile"))) {
            killed.awaitLine("FAULT after-commit", Duration.ofSeconds(180));
            killed.awaitStopped(Duration.ofSeconds(10));
            killed.signal("KILL");
            killed.awaitExit(Duration.ofSeconds(10));
        }
        Thread.sleep(3500); // the dead process's campaign lease expires
        assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.reconcile_range")).isEqualTo(4);
        assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.reconcile_pass WHERE finished_at IS NULL")).isEqualTo(1);

        String resumed = route.cli(0, route.withCampaign("reconcile"));
        assertThat(resumed).contains("4 of 8 range(s) to reconcile").contains("caught up");
        assertThat(targetRows(route, "")).isEqualTo(sourceRows(route, ""));
        assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.reconcile_range")).as("each range once").isEqualTo(8);
        assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.reconcile_pass")).isEqualTo(1);
    }

    /**
     * With {@code spec.reconcile} the driver runs the pass itself between publication and the handoff (ADR 0057). A
     * reviewed table without a rowversion column is refused by the pre-flight, before anything is written, naming the
     * field and the fix. On SQL Server the fix is made there (the shadow copies the column) and one {@code run} loads
     * while the source takes writes, publishes, reconciles and hands off with the pass's anchor. Babelfish cannot
     * fingerprint a binary column (src-docs/babelfish-gaps.md), so there the campaign is published without the
     * column (pre-flight skipped, as an expert may): its pass stops naming the fix before writing anything, the column
     * is added to the published table, and running again reconciles and hands off the same way.
     */
    @Test
    void backfillRunWithSpecReconcileNeedsTheRowversionColumnBeforeTheLoadThenReconcilesBeforeTheHandoff() throws Exception {
        SqlServerRoute route = new SqlServerRoute(dir, "orders_reconcile_spec_v1", 3000, 8, 2, 10);
        java.nio.file.Files.writeString(route.campaignFile, java.nio.file.Files.readString(route.campaignFile)
                + "  reconcile: {mode: once}\n");
        String refused = route.cli(6, route.runArgs("run")); // the pre-flight refused it
        assertThat(refused).contains("pre-flight refused the campaign: nothing was created")
                .contains("target.reconcile.row-version-missing").contains("spec.reconcile is once")
                .contains("ALTER TABLE [dbo].[orders] ADD [dpone_row_version] rowversion");
        assertThat(route.count("SELECT COUNT_BIG(*) FROM sys.tables AS t JOIN sys.schemas AS s ON s.schema_id = t.schema_id"
                + " WHERE s.name = N'backfill_state' OR t.name LIKE N'orders[_][_]bf%'")).as("nothing written").isZero();

        if (route.sqlServer) {
            addRowVersion(route);
        }
        String[] run = route.sqlServer ? route.runArgs("run") : append(route.runArgs("run"), "--skip-preflight");
        int rounds = 0;
        try (LaunchedProcess load = LaunchedProcess.start(dir, route.env(), run)) {
            long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
            while (route.committedChunks() < 8 && System.nanoTime() < deadline) {
                rounds++;
                route.source.execute("UPDATE public.orders SET note = 'during the load " + rounds + "' WHERE id % 97 = " + rounds,
                        "DELETE FROM public.orders WHERE id % 89 = " + rounds);
                Thread.sleep(200);
            }
            String reconciled;
            if (route.sqlServer) {
                assertThat(load.awaitExit(Duration.ofMinutes(5))).as(load.output()).isZero();
                reconciled = load.output();
            } else {
                assertThat(load.awaitExit(Duration.ofMinutes(5))).as(load.output()).isNotZero();
                assertThat(load.output()).contains("needs a rowversion column on [dbo].[orders]");
                assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.publication_receipt")).isEqualTo(1);
                assertThat(route.count("SELECT COUNT_BIG(*) FROM backfill_state.handoff_receipt")).as("no handoff yet").isZero();
                addRowVersion(route);
                reconciled = route.cli(0, route.runArgs("run"));
            }
            assertThat(reconciled).contains("reconciliation pass 1").contains("caught up");
        }
        System.out.println("the source took " + rounds + " round(s) of writes during the load");
        assertThat(targetRows(route, "")).isEqualTo(sourceRows(route, ""));
        assertThat(route.lines("SELECT h.anchor_xmin FROM backfill_state.handoff_receipt h"))
                .as("the handoff carries the pass's anchor").isEqualTo(route.lines("SELECT anchor FROM backfill_state.reconcile_pass"));
    }

    private static String[] append(String[] args, String extra) {
        String[] out = java.util.Arrays.copyOf(args, args.length + 1);
        out[args.length] = extra;
        return out;
    }

    /** Updates, deletes and inserts spread over every chunk, with text that needs care (quotes, Unicode, empty). */
    private static void writeTheSource(SqlServerRoute route, int round) throws SQLException {
        route.source.execute("UPDATE public.orders SET title = 'updated ' || id || ' \"q\" ñ', paid = NOT paid, note = ''"
                        + " WHERE id % 5 = " + round,
                "DELETE FROM public.orders WHERE id % 13 = 0",
                "INSERT INTO public.orders (id, amount, title, paid, attrs, note) SELECT 10000 * " + (round + 1) + " + i, i * 1.5,"
                        + " 'inserted ' || i || ' ✓', i % 2 = 0, jsonb_build_object('i', i), NULL FROM generate_series(1, 120) i");
    }

    /** The route's engine needs nothing on SQL Server; Babelfish its escape hatch and the function it lacks. */
    private static void addRowVersion(SqlServerRoute route) throws SQLException {
        try (Connection c = route.engine.connect(route.database); Statement s = c.createStatement()) {
            if (!route.sqlServer) {
                s.execute("EXEC sp_babelfish_configure 'escape_hatch_rowversion', 'ignore', 'server'");
                // Babelfish's rowversion is the writing transaction's id: the lowest one still running is its
                // MIN_ACTIVE_ROWVERSION (SQL Server's definition: the lowest active rowversion in the database).
                s.execute("CREATE FUNCTION dbo.min_active_rowversion() RETURNS binary(8) AS BEGIN RETURN CAST(CAST(CAST("
                        + "pg_snapshot_xmin(pg_current_snapshot()) AS varchar(30)) AS bigint) AS binary(8)) END");
            }
            s.execute("ALTER TABLE dbo.orders ADD dpone_row_version rowversion");
        }
    }

    private static List<String> sourceRows(SqlServerRoute route, String where) throws SQLException {
        try (Connection c = route.source.connect()) {
            return rows(c, SOURCE_ROWS + where + " ORDER BY id");
        }
    }

    private static List<String> targetRows(SqlServerRoute route, String where) throws SQLException {
        try (Connection c = route.engine.connect(route.database)) {
            return rows(c, TARGET_ROWS + where + " ORDER BY id");
        }
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                BigDecimal amount = rs.getBigDecimal(2);
                rows.add(String.join("|", Long.toString(rs.getLong(1)), amount.toPlainString(), rs.getString(3),
                        Boolean.toString(rs.getBoolean(4)), String.valueOf(rs.getString(5)), String.valueOf(rs.getString(6))));
            }
        }
        return rows;
    }
}
