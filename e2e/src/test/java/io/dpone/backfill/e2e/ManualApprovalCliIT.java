package io.dpone.backfill.e2e;

import io.dpone.backfill.testsupport.postgres.ItemsTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Manual approval through the CLI (issue 28): `backfill run` of a campaign with publication.approval: manual loads,
 * validates, says it waits for approval and keeps waiting, swapping nothing; `backfill publish` from another
 * process approves it; the running driver then swaps and exits 0, and `backfill status` shows who approved.
 */
class ManualApprovalCliIT {
    @TempDir
    Path dir;

    @Test
    void runWaitsForApprovalAndPublishFromAnotherProcessLetsItSwap() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "items_approved_v1", 1200, 4, 2);
        Files.writeString(f.campaignFile, Files.readString(f.campaignFile)
                .replace("  publication: {mode: shadow_swap}", "  publication: {mode: shadow_swap, approval: manual}"));
        try (LaunchedProcess run = LaunchedProcess.start(dir, f.env(), f.runArgs("run"))) {
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (!run.output().contains("waits for a person's approval") && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            assertThat(run.output()).contains("waits for a person's approval").contains("backfill publish");
            assertThat(f.target.queryForLong("SELECT count(*) FROM public.items")).as("nothing swapped").isEqualTo(1);

            String approved = f.cli(0, f.files.withCampaign("publish", "--by", "jane@example.org"));
            assertThat(approved).contains("approved by jane@example.org");

            assertThat(run.awaitExit(Duration.ofSeconds(60))).as(run.output()).isZero();
        }
        assertThat(ItemsTable.rows(f.target)).isEqualTo(ItemsTable.rows(f.source));
        assertThat(f.cli(0, f.files.withCampaign("status"))).contains("approval manual (approved by jane@example.org at");
        assertThat(f.target.queryForStrings("SELECT approved_by FROM backfill_state.publication_receipt"))
                .containsExactly("jane@example.org");
    }
}
