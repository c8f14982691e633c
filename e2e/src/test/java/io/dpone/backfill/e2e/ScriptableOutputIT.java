package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 40: {@code backfill ... --format json | jq .} works for plan, doctor, run, status and verify. stdout holds
 * exactly one JSON document and nothing else (no progress line, no notice); progress and notices go to stderr. A run's
 * {@code --format text} is the final status line and what to do next.
 */
class ScriptableOutputIT {
    /** Like jq: one document, and a second token after it is an error rather than ignored. */
    private static final ObjectReader ONE_DOCUMENT = new ObjectMapper().readerFor(JsonNode.class)
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @TempDir
    Path dir;

    @Test
    void stdoutOfEveryJsonCommandIsOneJsonDocumentAndProgressGoesToStderr() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "scripts", 2000, 4, 2);

        JsonNode plan = stdoutJson(f, 0, "plan", f.campaignFile.toString(), "--format", "json");
        assertThat(plan.path("runKey").asText()).isNotBlank();

        JsonNode doctor = stdoutJson(f, 0, f.files.withCampaign("doctor", "--format", "json"));
        assertThat(doctor.isObject() || doctor.isArray()).isTrue();

        String[] runJson = java.util.stream.Stream.concat(java.util.Arrays.stream(f.runArgs("run")),
                java.util.stream.Stream.of("--format", "json")).toArray(String[]::new);
        BackfillProcess.Result run = BackfillProcess.run(dir, f.env(), Duration.ofMinutes(3), runJson);
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode evidence = ONE_DOCUMENT.readValue(run.stdout());
        assertThat(evidence.path("backfill").isMissingNode()).as(run.stdout()).isFalse();
        assertThat(run.stdout()).doesNotContain("chunks committed");
        assertThat(run.stderr()).as("the progress line").contains("chunks committed").contains("[HandoffCommitted]");

        JsonNode status = stdoutJson(f, 0, f.files.withCampaign("status", "--format", "json"));
        assertThat(status.path("phase").asText()).isEqualTo("HandoffCommitted");

        JsonNode verify = stdoutJson(f, 0, f.files.withCampaign("verify", "--format", "json"));
        assertThat(verify.toString()).contains("passed");

        String[] resumeText = java.util.stream.Stream.concat(java.util.Arrays.stream(f.runArgs("resume")),
                java.util.stream.Stream.of("--format", "text")).toArray(String[]::new);
        BackfillProcess.Result text = BackfillProcess.run(dir, f.env(), Duration.ofMinutes(2), resumeText);
        assertThat(text.exitCode()).as(text.stderr()).isZero();
        assertThat(text.stdout()).as("a person's report: the status line and what to do next").startsWith("[HandoffCommitted]")
                .contains("\nnext: start incremental sync from the XMin anchor ");
    }

    private static JsonNode stdoutJson(CampaignFixture f, int exit, String... args) throws Exception {
        BackfillProcess.Result r = BackfillProcess.run(f.dir, f.env(), Duration.ofMinutes(2), args);
        assertThat(r.exitCode()).as(String.join(" ", args) + "\n" + r.stdout() + r.stderr()).isEqualTo(exit);
        return ONE_DOCUMENT.readValue(r.stdout());
    }
}
