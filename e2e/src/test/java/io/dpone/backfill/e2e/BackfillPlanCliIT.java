package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** `backfill plan` as a user runs it: the packaged jar, the shipped examples, real exit codes. */
class BackfillPlanCliIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path work;

    @TempDir
    Path inputs;

    private static Path example(String name) {
        return BackfillProcess.REPO.resolve("examples").resolve(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"pg-to-mssql-orders.yaml", "pg-to-pg-events.yaml"})
    void plansEveryShippedExampleWithOneSummaryLineAndSaysTheReadsNeedTheSource(String name) throws Exception {
        BackfillProcess.Result r = BackfillProcess.run(work, "plan", example(name).toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout().lines()).hasSize(2).first().satisfies(line ->
                assertThat(line).contains(" chunks on ", " workers, ", "run key rk-", "shadow ", "backup "));
        // Issue 41: without the source's settings plan touches no database and says what the estimate needs.
        assertThat(r.stdout().lines()).last().asString()
                .startsWith("source reads: not estimated: needs the source (plan touched no database)");
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void jsonIsBoundedWithoutChunksAndListsEveryChunkWithThem() throws Exception {
        BackfillProcess.Result plain = BackfillProcess.run(work, "plan", example("pg-to-mssql-orders.yaml").toString(), "--format", "json");
        assertThat(plain.exitCode()).as(plain.stderr()).isZero();
        JsonNode doc = JSON.readTree(plain.stdout());
        assertThat(doc.path("chunks").path("count").asInt()).isEqualTo(512);
        assertThat(doc.has("chunkList")).isFalse();
        assertThat(plain.stdout().length()).isLessThan(4096);
        assertThat(doc.path("runKey").asText()).matches("rk-[0-9a-f]{24}");
        assertThat(doc.path("publication").path("shadow").asText()).matches("dbo\\.orders__bf_[0-9a-f]{8}_shadow");

        BackfillProcess.Result full = BackfillProcess.run(work, "plan", example("pg-to-mssql-orders.yaml").toString(), "--format", "json", "--chunks");
        JsonNode chunks = JSON.readTree(full.stdout()).path("chunkList");
        assertThat(chunks.size()).isEqualTo(512);
        assertThat(chunks.get(0).path("lower").isNull()).isTrue();
        assertThat(chunks.get(511).path("upper").isNull()).isTrue();
        assertThat(chunks.get(1).path("predicate").asText()).startsWith("\"id\" >= '");
    }

    @Test
    void aPhysicalPlanShowsItsChunkCountAndSaysItsRangesArePlannedAtPreparation() throws Exception {
        String physical = Files.readString(example("pg-to-mssql-orders.yaml")).replace("    column: id\n    kind: uuid\n", "    kind: physical\n");
        Path file = Files.writeString(inputs.resolve("physical.yaml"), physical);
        BackfillProcess.Result line = BackfillProcess.run(work, "plan", file.toString());
        assertThat(line.exitCode()).as(line.stderr()).isZero();
        assertThat(line.stdout()).contains("512 physical chunks on the source heap's blocks (ranges planned at preparation)");

        BackfillProcess.Result full = BackfillProcess.run(work, "plan", file.toString(), "--format", "json", "--chunks");
        assertThat(full.exitCode()).as(full.stderr()).isZero();
        JsonNode doc = JSON.readTree(full.stdout());
        assertThat(doc.path("chunks").path("kind").asText()).isEqualTo("physical");
        assertThat(doc.path("chunkList").size()).isEqualTo(512);
        assertThat(doc.path("chunkList").get(7).path("predicate").asText()).contains("planned at preparation");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', ignoreLeadingAndTrailingWhitespace = false, value = {
            "unknown field|  parallelWorkers: 4|  parallelWorkers: 4\\n  colour: red|spec.colour",
            "quoted integer|buckets: 512|buckets: \"64\"|spec.chunk.buckets",
            "duplicate key|  parallelWorkers: 4|  parallelWorkers: 4\\n  parallelWorkers: 8|spec.parallelWorkers",
            "no unique key|  uniqueKey: [id]\\n||spec.uniqueKey",
            "no chunk column|    column: id\\n||spec.chunk.column",
            "zero buckets|buckets: 512|buckets: 0|spec.chunk.buckets",
            "negative buckets|buckets: 512|buckets: -4|spec.chunk.buckets",
            "too many buckets|buckets: 512|buckets: 16385|spec.chunk.buckets",
            "zero workers|parallelWorkers: 4|parallelWorkers: 0|spec.parallelWorkers",
            "too many workers|parallelWorkers: 4|parallelWorkers: 65|spec.parallelWorkers",
            "empty table|    table: orders\\n  uniqueKey|    table: \"\"\\n  uniqueKey|spec.target.table",
            "quote in table|    table: orders\\n  uniqueKey|    table: 'or\"ders'\\n  uniqueKey|spec.target.table",
            "bracket in table|    table: orders\\n  uniqueKey|    table: \"orders]\"\\n  uniqueKey|spec.target.table",
            "bidi in table|    table: orders\\n  uniqueKey|    table: \"ord\\u202Eers\"\\n  uniqueKey|spec.target.table",
            "control in table|    table: orders\\n  uniqueKey|    table: \"ord\\u0007ers\"\\n  uniqueKey|spec.target.table",
            "long mssql table|    table: orders\\n  uniqueKey|    table: TTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTTT\\n  uniqueKey|spec.target.table",
            "long source table|    table: orders\\n  target|    table: SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS\\n  target|spec.source.table",
            "unknown target type|type: mssql|type: oracle|spec.target.type",
            "shadow_swap with merge|innerMode: incremental_append|innerMode: incremental_merge|spec.innerMode",
            "shadow_swap without lock|requireDistributedLock: true|requireDistributedLock: false|spec.state.requireDistributedLock",
            "shadow_swap with onlyNewRows|onlyNewRows: false|onlyNewRows: true|spec.onlyNewRows",
    })
    void rejectsInvalidInputWithExitTwoNamingTheFieldAndCreatesNothing(String label, String from, String to, String path) throws Exception {
        String yaml = Files.readString(example("pg-to-mssql-orders.yaml"));
        String edited = replaceOnce(yaml, unescape(from), to == null ? "" : unescape(to));
        Path campaign = Files.writeString(inputs.resolve("campaign.yaml"), edited);

        BackfillProcess.Result r = BackfillProcess.run(work, "plan", campaign.toString());

        assertThat(r.exitCode()).as(label + ": " + r.stdout() + r.stderr()).isEqualTo(2);
        assertThat(r.stderr()).as(label).contains(path + ":");
        assertThat(r.stdout()).as(label).isEmpty();
        try (Stream<Path> created = Files.list(work)) {
            assertThat(created).as(label + ": nothing written to the working directory").isEmpty();
        }
    }

    @Test
    void sourceTableAsTargetExitsTwo() throws Exception {
        String yaml = Files.readString(example("pg-to-pg-events.yaml"));
        String edited = replaceOnce(replaceOnce(yaml, "name: warehouse-postgres", "name: app-postgres"), "schema: analytics", "schema: public");
        Path campaign = Files.writeString(inputs.resolve("same.yaml"), edited);
        BackfillProcess.Result r = BackfillProcess.run(work, "plan", campaign.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.stderr()).contains("spec.target.table:", "source-is-target");
    }

    @Test
    void missingFileIsAFailureButNotAnInvalidCampaign() throws Exception {
        BackfillProcess.Result r = BackfillProcess.run(work, "plan", work.resolve("nope.yaml").toString());
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stderr()).contains("nope.yaml");
    }

    private static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == 'n') {
                b.append('\n');
                i++;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static String replaceOnce(String text, String from, String to) throws IOException {
        int at = text.indexOf(from);
        if (at < 0 || text.indexOf(from, at + 1) >= 0) {
            throw new IOException("expected exactly one '" + from + "'");
        }
        return text.substring(0, at) + to + text.substring(at + from.length());
    }
}
