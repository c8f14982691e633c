package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spec.reconcile} through {@code backfill run} (issue 38, ADR 0057), PostgreSQL to PostgreSQL: the driver runs
 * the spec's pass after publication and before the handoff, whose receipt then carries the pass's anchor. The swap
 * waits for an approval so that the source's writes land at a known point after the load; the pass must catch them.
 */
class ReconcileRunCliIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ROWS = CampaignFixture.ITEMS_ROWS;

    @TempDir
    Path dir;

    /** A campaign with {@code reconcile} and a manual swap, and a `backfill run` waiting for the approval. */
    private CampaignFixture campaign(String backfillId, String reconcile) throws Exception {
        CampaignFixture f = new CampaignFixture(dir, backfillId, 3000, 8, 2);
        Files.writeString(f.campaignFile, Files.readString(f.campaignFile).replace("  publication: {mode: shadow_swap}",
                "  publication: {mode: shadow_swap, approval: manual}\n  reconcile: " + reconcile));
        return f;
    }

    private static void awaitApprovalWait(LaunchedProcess run) throws Exception {
        run.awaitLine("waits for a person's approval", Duration.ofSeconds(120));
    }


    @Test
    void runWithReconcileOnceHandsOffAtThePassAnchorWithTheTableEqualToTheSource() throws Exception {
        CampaignFixture f = campaign("reconcile_run", "{mode: once}");
        try (LaunchedProcess run = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
            awaitApprovalWait(run);
            f.writeTheSource();
            f.cli(0, f.files.withCampaign("publish", "--by", "jane@example.org"));
            assertThat(run.awaitExit(Duration.ofSeconds(120))).as(run.output()).isZero();
            String passAnchor = f.target.queryForString("SELECT anchor FROM backfill_state.reconcile_pass WHERE pass = 1");
            assertThat(run.output()).contains("reconciliation pass 1 finished at anchor " + passAnchor)
                    .contains("next: start incremental sync from the XMin anchor " + passAnchor)
                    .contains("incremental sync anchor: " + passAnchor + "; caught up");
        }
        assertThat(f.target.queryForStrings(ROWS)).as("deletes included").isEqualTo(f.source.queryForStrings(ROWS));
        String passAnchor = f.target.queryForString("SELECT anchor FROM backfill_state.reconcile_pass WHERE pass = 1");
        assertThat(f.target.queryForStrings("SELECT anchor_xmin FROM backfill_state.handoff_receipt")).containsExactly(passAnchor);
        assertThat(passAnchor).isNotEqualTo(f.target.queryForString("SELECT anchor_xmin FROM backfill_state.campaign"));
        assertThat(f.target.queryForLong("SELECT deleted FROM backfill_state.reconcile_pass")).isPositive();

        String json = f.cli(0, f.files.withCampaign("status", "--format", "json"));
        JsonNode status = JSON.readTree(json.substring(json.indexOf("{\n")));
        assertThat(status.path("phase").asText()).isEqualTo("HandoffCommitted");
        assertThat(status.path("handoff").path("anchorXmin").asText()).isEqualTo(passAnchor);
        assertThat(status.path("reconciliation").path("syncAnchorFromPass").asInt()).isEqualTo(1);
        assertThat(status.path("reconciliation").path("caughtUp").asBoolean()).isTrue();

        // A finished pass is not run again: run once more, nothing moves.
        assertThat(f.cli(0, f.runArgs("resume"))).contains("caught up");
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.reconcile_pass")).isEqualTo(1);
    }

    /** SIGKILL of the driver in the middle of its pass, after some ranges committed: one `resume` finishes it. */
    @Test
    void aDriverKilledMidPassIsFinishedByOneResumeAndTheHandoffCarriesThatPassAnchor() throws Exception {
        CampaignFixture f = campaign("reconcile_run_kill", "{mode: once}");
        try (LaunchedProcess run = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
            awaitApprovalWait(run);
            run.signal("KILL");
            run.awaitExit(Duration.ofSeconds(10));
        }
        f.writeTheSource();
        f.cli(0, f.files.withCampaign("publish", "--by", "jane@example.org"));
        Thread.sleep(3500); // the dead driver's campaign lease expires
        // The next driver swaps, then freezes after its pass's fourth range committed; no lane runs past loading.
        Map<String, String> env = f.env();
        env.put("BACKFILL_FAULT", "after-commit:3");
        try (LaunchedProcess killed = LaunchedProcess.start(dir, env, f.runArgs("resume"))) {
            killed.awaitLine("FAULT after-commit", Duration.ofSeconds(120));
            killed.awaitStopped(Duration.ofSeconds(10));
            killed.signal("KILL");
            killed.awaitExit(Duration.ofSeconds(10));
        }
        Thread.sleep(3500);
        assertThat(f.target.queryForStrings("SELECT phase FROM backfill_state.campaign")).containsExactly("Published");
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.reconcile_range")).isEqualTo(4);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.handoff_receipt")).isZero();

        String resumed = f.cli(0, f.runArgs("resume"));
        assertThat(resumed).contains("4 of 8 range(s) to reconcile").contains("caught up");
        assertThat(f.target.queryForStrings(ROWS)).isEqualTo(f.source.queryForStrings(ROWS));
        assertThat(ItemsTable.rows(f.target)).isEqualTo(ItemsTable.rows(f.source));
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.reconcile_range")).as("each range once").isEqualTo(8);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.reconcile_pass")).as("the same pass, finished").isEqualTo(1);
        assertThat(f.target.queryForStrings("SELECT anchor_xmin FROM backfill_state.handoff_receipt"))
                .containsExactly(f.target.queryForString("SELECT anchor FROM backfill_state.reconcile_pass"));
    }
}
