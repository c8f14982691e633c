package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `chunk.kind: physical` (ADR 0015) as a user runs it, through the packaged CLI with lanes as processes: doctor,
 * run and status, and a lane killed in the middle of a physical chunk's COPY (inside the chunk's checked source
 * transaction) leaves neither loss nor duplicate after resume.
 */
class PhysicalChunksCliIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void doctorAcceptsPhysicalChunksAndRunPublishesEveryRowOnce() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "physical_run", 6000, CampaignYaml.physicalChunks(8), 2);
        assertThat(f.cli(0, f.files.withCampaign("doctor"))).contains("doctor: 0 error(s)");

        assertThat(f.cli(0, f.runArgs("run"))).contains("HandoffCommitted");

        JsonNode status = JSON.readTree(f.cli(0, f.files.withCampaign("status", "--format", "json")));
        assertThat(status.path("progress").path("committedChunks").asInt()).isEqualTo(8);
        assertThat(status.path("publication").path("validation").asText()).isEqualTo("passed");
        f.assertPublishedExactlyTheSource();
    }

    @Test
    void doctorRefusesPhysicalChunksOnAnInheritanceParentNamingWhy() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "physical_parent", 100, CampaignYaml.physicalChunks(4), 1);
        f.source.execute("CREATE TABLE public.items_archive () INHERITS (public.items)");
        assertThat(f.cli(6, f.files.withCampaign("doctor"))).contains("source.physical.unsupported")
                .contains("inheritance children");
    }

    @Test
    void aLaneKilledMidCopyOfAPhysicalChunkLeavesNeitherLossNorDuplicateAfterResume() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "physical_crash", 6000, CampaignYaml.physicalChunks(8), 2);
        f.prepareToLoading();
        try (LaunchedProcess lane = LaunchedProcess.start(dir, f.laneEnv("mid-copy:3"), f.laneArgs(0))) {
            lane.awaitLine("FAULT mid-copy chunk=3", Duration.ofSeconds(60));
            lane.awaitStopped(Duration.ofSeconds(10));
            lane.signal("KILL");
            lane.awaitExit(Duration.ofSeconds(10));
        }
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt WHERE chunk_id = 3")).isZero();

        try (LaunchedProcess resume = LaunchedProcess.start(dir, f.env(), f.runArgs("resume"))) {
            assertThat(resume.awaitExit(Duration.ofSeconds(120))).as(resume.output()).isZero();
            assertThat(resume.output()).contains("HandoffCommitted");
        }
        f.assertPublishedExactlyTheSource();
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt")).isEqualTo(8);
    }
}
