package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** doctor, status and rollback as a user runs them, with Secret manifests for the connection settings. */
class CampaignCommandsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static String[] withCampaign(CampaignFixture f, String command, String... more) {
        return f.files.withCampaign(command, more);
    }

    @Test
    void doctorPassesAGoodSetupAndCreatesNothing() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "doctor_ok", 100, 4, 1);
        String out = f.cli(0, withCampaign(f, "doctor"));
        assertThat(out).contains("doctor: 0 error(s)");
        assertThat(f.target.queryForLong("SELECT count(*) FROM pg_namespace WHERE nspname = 'backfill_state'")).isZero();
    }

    @Test
    void doctorReportsANullableChunkColumnWithAnActionAndExitsWithPreflightErrors() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "doctor_bad", 100, 4, 1);
        f.source.execute("ALTER TABLE public.items DROP CONSTRAINT items_pkey", "ALTER TABLE public.items ALTER COLUMN id DROP NOT NULL");
        String out = f.cli(6, withCampaign(f, "doctor"));
        assertThat(out).contains("ERROR").contains("source.chunk-column").contains("->");
    }

    /** Issue 40: a Secret name the files do not hold is a pre-flight ERROR (exit 6) that lists what they hold. */
    @Test
    void doctorReportsASecretTheFilesDoNotHoldAsAnErrorListingTheSecretsTheyHold() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "doctor_secret", 100, 4, 1);
        String yaml = java.nio.file.Files.readString(f.campaignFile);
        java.nio.file.Files.writeString(f.campaignFile, yaml.replaceFirst("name: tgt-db", "name: tgt-dbb"));
        String out = f.cli(6, withCampaign(f, "doctor"));
        assertThat(out).contains("ERROR").contains("target.secret.unresolved").contains("'tgt-dbb'")
                .contains("[src-db, tgt-db]").contains("doctor: 1 error(s)");
    }

    @Test
    void statusBeforeAndAfterARunAndRollbackWithItsReceipt() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "status_rollback", 3000, 8, 2);
        assertThat(f.cli(0, withCampaign(f, "status"))).contains("not started");
        assertThat(f.cli(1, withCampaign(f, "rollback", "--reason", "too early"))).as("issue 40: not a SQL error")
                .contains("was never started: nothing was published, so there is nothing to roll back")
                .doesNotContain("does not exist");
        assertThat(f.target.hasSchema("backfill_state")).as("nothing created").isFalse();

        String run = f.cli(0, f.runArgs("run"));
        assertThat(run).as("lanes start before preparation, their process start overlapping it")
                .contains("2 lane(s) started while the campaign is Planned; they wait for Loading");
        assertThat(f.cli(0, withCampaign(f, "status"))).as("issue 41: the reads preparation predicted, in the text too")
                .containsPattern("source reads: (about [0-9.]+x the table.s [0-9]+ pages: |not estimated: .*run ANALYZE)");
        JsonNode status = JSON.readTree(f.cli(0, withCampaign(f, "status", "--format", "json")));
        assertThat(status.path("phase").asText()).isEqualTo("HandoffCommitted");
        assertThat(status.path("progress").path("committedChunks").asInt()).isEqualTo(8);
        assertThat(status.path("publication").path("validation").asText()).isEqualTo("passed");
        assertThat(status.path("publication").path("receiptId").asText()).isNotBlank();
        assertThat(status.path("handoff").path("receiptId").asText()).isNotBlank();
        assertThat(status.path("failedChunks").size()).isZero();
        f.assertPublishedExactlyTheSource();

        String rolledBack = f.cli(0, withCampaign(f, "rollback", "--reason", "e2e check"));
        assertThat(rolledBack).contains("rolled back");
        assertThat(f.target.queryForLong("SELECT count(*) FROM public.items")).isEqualTo(1);
        assertThat(f.target.queryForLong("SELECT count(*) FROM public.items WHERE note = 'the old table'")).isEqualTo(1);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.rollback_receipt")).isEqualTo(1);
        JsonNode after = JSON.readTree(f.cli(0, withCampaign(f, "status", "--format", "json")));
        assertThat(after.path("publication").path("phase").asText()).as("status agrees with the operator after a rollback")
                .isEqualTo("rolled_back");
        assertThat(after.path("recommendedAction").asText()).contains("rolled back");
        f.cli(0, withCampaign(f, "rollback", "--reason", "again"));
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.rollback_receipt")).as("a replay is a no-op").isEqualTo(1);
        assertThat(f.target.queryForLong("SELECT count(*) FROM public.items")).isEqualTo(1);
    }
}
