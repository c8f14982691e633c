package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.backfill.core.plan.UuidKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code backfill verify} as a user runs it (ADR 0018): exit 1 before anything was published, exit 0 and every chunk
 * equal after a clean campaign, exit 7 naming exactly the chunk of a tampered published row, exit 2 naming the field
 * of a bad campaign file before touching anything; status and the evidence JSON show the last result.
 */
class VerifyCliIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static JsonNode evidence(String output) throws Exception {
        return JSON.readTree(output.substring(output.lastIndexOf("{\n  \"backfill\"")));
    }

    @Test
    void verifyExitsZeroOnACleanCampaignAndSevenNamingTheTamperedChunk() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "verify_cli", 3000, 8, 2);
        assertThat(f.cli(1, f.files.withCampaign("verify"))).contains("cannot verify");

        f.cli(0, f.runArgs("run"));
        String clean = f.cli(0, f.files.withCampaign("verify"));
        assertThat(clean).contains("8 chunks (key range): 8 equal, 0 differ").contains("result: passed");
        assertThat(f.cli(0, f.files.withCampaign("status"))).contains("verification: passed");

        String id = f.target.queryForStrings("SELECT id::text FROM public.items ORDER BY id OFFSET 1500 LIMIT 1").get(0);
        int chunk = f.blueprint.plan().locate(UuidKeys.fromText(id)).id();
        f.target.execute("UPDATE public.items SET qty = qty + 1 WHERE id = '" + id + "'");

        String tampered = f.cli(VerifyCommandExit.DIFFERENCES, f.files.withCampaign("verify"));
        assertThat(tampered).contains("7 equal, 1 differ").contains("chunk " + chunk + " [")
                .contains("differs: the published table differs from what the lane loaded").contains("exit 7")
                .as("issue 40: the row and column, as the read-back gate names them")
                .contains("first difference: key (id)=(" + id + "), column qty: read ");
        String jsonOut = f.cli(VerifyCommandExit.DIFFERENCES, f.files.withCampaign("verify", "--format", "json"));
        // stderr (progress lines) and stdout (the document) arrive together here
        JsonNode json = JSON.readTree(jsonOut.substring(jsonOut.indexOf("{\n")));
        assertThat(json.path("result").asText()).isEqualTo("differences");
        assertThat(json.path("differing_chunks").toString()).isEqualTo("[" + chunk + "]");
        assertThat(json.path("chunks").get(0).path("outcome").asText()).isEqualTo("differs");

        JsonNode status = JSON.readTree(f.cli(0, f.files.withCampaign("status", "--format", "json")));
        assertThat(status.path("verification").path("result").asText()).isEqualTo("differences");
        JsonNode evidence = evidence(f.cli(0, f.runArgs("resume"))).path("backfill");
        assertThat(evidence.path("verification").path("differing_chunks").toString()).isEqualTo("[" + chunk + "]");
    }

    @Test
    void aBadCampaignFileExitsTwoNamingTheFieldBeforeConnecting() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "verify_bad", 10, 2, 1);
        Files.writeString(f.campaignFile, Files.readString(f.campaignFile).replace("parallelWorkers: 1", "parallelWorkers: 0"));
        String out = f.cli(2, f.files.withCampaign("verify"));
        assertThat(out).contains("parallelWorkers");
        assertThat(f.target.queryForLong("SELECT count(*) FROM pg_namespace WHERE nspname = 'backfill_state'")).isZero();
    }

    /** The documented exit code of `verify` when a chunk differs. */
    private static final class VerifyCommandExit {
        static final int DIFFERENCES = 7;
    }
}
