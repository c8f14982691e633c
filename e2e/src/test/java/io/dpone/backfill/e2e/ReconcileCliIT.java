package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 38 on PostgreSQL to PostgreSQL, through the packaged CLI: after the handoff the source takes inserts, updates
 * and deletes; a pass brings the published table to the source row for row, deletes included; a row written into the
 * published table by hand is queued, never overwritten, and converges once accepted.
 */
class ReconcileCliIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ROWS = CampaignFixture.ITEMS_ROWS;

    @TempDir
    Path dir;

    private static String[] with(CampaignFixture f, String command, String... more) {
        return f.files.withCampaign(command, more);
    }


    @Test
    void aPassMakesThePublishedTableEqualToTheSourceDeletesIncludedAndQueuesAHandEditedRowUntilAccepted() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "reconcile_cli", 3000, 8, 2);
        assertThat(f.cli(1, with(f, "reconcile"))).as("not started").contains("cannot reconcile").contains("never started");
        f.cli(0, f.runArgs("run"));
        f.writeTheSource();
        assertThat(f.target.queryForStrings(ROWS)).isNotEqualTo(f.source.queryForStrings(ROWS));
        // Someone edits the published table by hand: a row the source also changed, and one it did not.
        String both = f.target.queryForStrings("SELECT id::text FROM public.items WHERE qty % 7 = 0 AND qty % 11 <> 0 ORDER BY id LIMIT 1").get(0);
        String handOnly = f.target.queryForStrings("SELECT id::text FROM public.items WHERE qty % 7 <> 0 AND qty % 11 <> 0 ORDER BY id LIMIT 1").get(0);
        f.target.execute("UPDATE public.items SET note = 'by hand' WHERE id IN ('" + both + "', '" + handOnly + "')");
        // And deletes one the source kept: the key is missing from the published table, not the source's to decide.
        String goneByHand = f.target.queryForStrings("SELECT id::text FROM public.items WHERE qty % 7 <> 0 AND qty % 11 <> 0"
                + " ORDER BY id OFFSET 5 LIMIT 1").get(0);
        f.target.execute("DELETE FROM public.items WHERE id = '" + goneByHand + "'");

        String first = f.cli(7, with(f, "reconcile"));
        assertThat(first).contains("reconciliation pass 1").contains("3 key(s) waiting for a decision")
                .contains("(" + both + ")").contains("(" + handOnly + ")").contains("(" + goneByHand + ")")
                .contains("missing from the published table");
        String others = "SELECT concat_ws('|', id, qty, note) FROM public.items WHERE id NOT IN ('" + both + "', '" + handOnly
                + "', '" + goneByHand + "') ORDER BY id";
        assertThat(f.target.queryForStrings(others)).as("every other row, deletes included").isEqualTo(f.source.queryForStrings(others));
        assertThat(f.target.queryForStrings("SELECT note FROM public.items WHERE id IN ('" + both + "', '" + handOnly + "')"))
                .as("never overwritten").containsOnly("by hand");

        JsonNode status = JSON.readTree(f.cli(0, with(f, "status", "--format", "json")).lines()
                .dropWhile(l -> !l.startsWith("{")).reduce("", (a, b) -> a + b + "\n"));
        JsonNode reconciliation = status.path("reconciliation");
        assertThat(reconciliation.path("queue").path("undecided").asLong()).isEqualTo(3);
        assertThat(reconciliation.path("caughtUp").asBoolean()).isFalse();
        assertThat(reconciliation.path("passes").get(0).path("deleted").asLong()).isPositive();
        assertThat(reconciliation.path("passes").get(0).path("keyDigestsEqual").asBoolean()).as("deletes found").isFalse();
        JsonNode coverage = reconciliation.path("coverage");
        assertThat(coverage.path("chunkKind").asText()).isEqualTo("uuid");
        assertThat(coverage.path("ranges").asInt()).isEqualTo(8);
        assertThat(coverage.path("rowsOutsideRanges").asLong()).isZero();
        assertThat(coverage.path("loadSnapshotAnchor").asText()).isEqualTo(reconciliation.path("passes").get(0).path("sinceAnchor").asText());

        String accepted = f.cli(0, with(f, "reconcile", "--accept", "(" + both + ")", "--accept", "(" + goneByHand + ")",
                "--keep", "(" + handOnly + ")"));
        assertThat(accepted).contains("reconciliation pass 2").contains("0 key(s) waiting").contains("caught up");
        String kept = "SELECT concat_ws('|', id, qty, note) FROM public.items WHERE id <> '" + handOnly + "' ORDER BY id";
        assertThat(f.target.queryForStrings(kept)).isEqualTo(f.source.queryForStrings(kept));
        assertThat(f.target.queryForStrings("SELECT note FROM public.items WHERE id = '" + handOnly + "'")).containsExactly("by hand");

        String again = f.cli(0, with(f, "reconcile", "--format", "json"));
        JsonNode report = JSON.readTree(again.substring(again.indexOf("{\n")));
        assertThat(report.path("passes").get(2).path("upserted").asLong()).as("nothing changed since").isZero();
        assertThat(report.path("syncAnchorFromPass").asInt()).isEqualTo(3);
        assertThat(report.path("passes").get(2).path("keyDigestsEqual").asBoolean()).isTrue();
        assertThat(report.path("keyDigestsEqualAtSyncAnchor").asBoolean()).isTrue();
    }

    /** Physical chunks place no row in a key range: the pass compares the whole table's keys as one range. */
    @Test
    void aPhysicalCampaignIsReconciledAsOneWholeTableRange() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "reconcile_physical", 3000,
                io.dpone.backfill.testsupport.postgres.CampaignYaml.physicalChunks(6), 2);
        f.cli(0, f.runArgs("run"));
        f.writeTheSource();

        String out = f.cli(0, with(f, "reconcile"));
        assertThat(out).contains("1 of 1 range(s) to reconcile").contains("caught up");
        assertThat(f.target.queryForStrings(ROWS)).isEqualTo(f.source.queryForStrings(ROWS));

        // The pass wrote the published table after publication: a rollback says so, as the runbook does.
        assertThat(f.cli(3, with(f, "rollback", "--reason", "after reconcile"))).contains("rollback refused");
        assertThat(f.cli(0, with(f, "rollback", "--reason", "after reconcile", "--accept-writes"))).contains("rolled back");
        assertThat(f.cli(1, with(f, "reconcile"))).contains("was rolled back");
    }

    /**
     * Chunked on a column that is not the key: a source update moves rows to other ranges, and the published table
     * still holds their old range's value until the pass writes them. A row that moved is the source's still, never
     * deleted from its old range, whichever range is applied first.
     */
    @Test
    void rowsTheSourceMovedToAnotherRangeAreWrittenNeverDeleted() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "reconcile_moved", 3000,
                "{column: qty, kind: integer, buckets: 6, lowerBound: 0, upperBound: 6000}", 2);
        f.cli(0, f.runArgs("run"));
        f.source.execute("UPDATE public.items SET qty = 5999 - qty, note = 'moved' WHERE qty % 5 = 0",
                "DELETE FROM public.items WHERE qty % 13 = 1",
                "INSERT INTO public.items SELECT gen_random_uuid(), 4000 + i, 'inserted ' || i FROM generate_series(1, 50) i");
        String out = f.cli(0, with(f, "reconcile"));
        assertThat(out).contains("6 of 6 range(s) to reconcile").contains("caught up");
        assertThat(f.target.queryForStrings(ROWS)).isEqualTo(f.source.queryForStrings(ROWS));
    }

    @Test
    void anUnknownKeyIsRefusedNamingTheOptionBeforeAnythingRuns() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "reconcile_bad", 500, 4, 1);
        f.cli(0, f.runArgs("run"));
        String out = f.cli(2, with(f, "reconcile", "--accept", "(no-such-key)"));
        assertThat(out).contains("--accept").contains("(no-such-key)").contains("not waiting in the reconciliation queue");
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.reconcile_pass")).isZero();
    }

    /** SIGKILL in the middle of a pass, after some ranges committed: one `reconcile` finishes it, the table exact. */
    @Test
    void aPassKilledMidwayIsFinishedByOneMoreReconcileAndTheTableIsExact() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "reconcile_kill", 4000, 8, 2);
        f.cli(0, f.runArgs("run"));
        f.writeTheSource();
        Map<String, String> env = f.env();
        env.put("BACKFILL_FAULT", "after-commit:3");
        try (LaunchedProcess killed = LaunchedProcess.start(dir, env, with(f, "reconcile"))) {
            killed.awaitLine("FAULT after-commit", Duration.ofSeconds(120));
            killed.awaitStopped(Duration.ofSeconds(10));
            killed.signal("KILL");
            killed.awaitExit(Duration.ofSeconds(10));
        }
        Thread.sleep(3500); // the dead process's campaign lease expires
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.reconcile_range")).isEqualTo(4);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.reconcile_pass WHERE finished_at IS NULL")).isEqualTo(1);

        String resumed = f.cli(0, with(f, "reconcile"));
        assertThat(resumed).contains("4 of 8 range(s) to reconcile").contains("caught up");
        assertThat(f.target.queryForStrings(ROWS)).isEqualTo(f.source.queryForStrings(ROWS));
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.reconcile_range")).as("each range once").isEqualTo(8);
        assertThat(f.target.queryForStrings("SELECT pass::text FROM backfill_state.reconcile_pass")).isEqualTo(List.of("1"));
    }
}
