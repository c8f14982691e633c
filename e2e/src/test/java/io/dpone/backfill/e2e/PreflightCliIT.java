package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pre-flight as a user meets it through `backfill run`: a campaign `doctor` fails never starts (exit 6, nothing
 * created), an expert can skip it and the evidence says so, and `rollback` will not silently drop writes made to
 * the published table.
 */
class PreflightCliIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int EXIT_PREFLIGHT_REFUSED = 6;
    private static final int EXIT_BLOCKED = 3;

    @TempDir
    Path dir;

    private static String[] with(String[] args, String... more) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    /** The evidence document is the last JSON object run prints on stdout. */
    private static JsonNode evidence(String output) throws Exception {
        return JSON.readTree(output.substring(output.lastIndexOf("{\n  \"backfill\"")));
    }

    private static void assertNothingCreated(CampaignFixture f) throws Exception {
        assertThat(f.target.queryForLong("SELECT count(*) FROM pg_namespace WHERE nspname = 'backfill_state'")).isZero();
        assertThat(f.target.queryForLong("SELECT count(*) FROM pg_class WHERE relname LIKE 'items__bf_%'")).isZero();
    }

    @Test
    void runRefusesASourceWithANullKeyRowNamesTheFindingsAndCreatesNothing() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "null_key", 900, 8, 2);
        f.source.execute("ALTER TABLE public.items DROP CONSTRAINT items_pkey", "ALTER TABLE public.items ALTER COLUMN id DROP NOT NULL",
                "INSERT INTO public.items VALUES (NULL, 901, 'no chunk covers me')");

        String out = f.cli(EXIT_PREFLIGHT_REFUSED, f.runArgs("run"));

        assertThat(out).contains("pre-flight refused the campaign: nothing was created")
                .contains("source.chunk-column.nullable").contains("source.unique-key.nullable").contains("->");
        JsonNode evidence = evidence(out).path("backfill");
        assertThat(evidence.path("phase").asText()).isEqualTo("refused_by_preflight");
        assertThat(evidence.path("preflight").path("result").asText()).isEqualTo("failed");
        assertThat(evidence.path("preflight").path("errors").asInt()).isEqualTo(2);
        assertNothingCreated(f);
        assertThat(f.target.queryForLong("SELECT count(*) FROM public.items")).as("live table as it was").isEqualTo(1);

        // resume of a campaign that never started is gated the same way
        f.cli(EXIT_PREFLIGHT_REFUSED, f.runArgs("resume"));
        assertNothingCreated(f);
    }

    @Test
    void runRefusesATargetWithADependentViewButNotForAnEmptyReferencingTableAndTheViewKeepsReadingTheLiveTable() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "bound_target", 900, 8, 2);
        f.target.execute("CREATE VIEW public.items_v AS SELECT * FROM public.items",
                "CREATE TABLE public.lines (id bigint PRIMARY KEY, item_id uuid REFERENCES public.items (id))");

        String out = f.cli(EXIT_PREFLIGHT_REFUSED, f.runArgs("run"));

        assertThat(out).contains("ERROR   target.binding.view").contains("\"errors\" : 1,")
                .as("the referencing table is re-pointed by the swap, not refused").doesNotContain("ERROR   target.binding.inbound");
        assertNothingCreated(f);
        f.target.execute("INSERT INTO public.items VALUES ('00000000-0000-0000-0000-000000000002', 2, 'new row')");
        assertThat(f.target.queryForLong("SELECT count(*) FROM public.items_v")).as("the view reads the live table").isEqualTo(2);
    }

    @Test
    void skipPreflightRunsTheCampaignAndTheEvidenceSaysPreflightWasSkipped() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "expert_skip", 900, 8, 2);
        // A nullable chunk column is a doctor ERROR; with no NULL row in it the campaign is still exact.
        f.source.execute("ALTER TABLE public.items DROP CONSTRAINT items_pkey", "ALTER TABLE public.items ALTER COLUMN id DROP NOT NULL");

        String out = f.cli(0, with(f.runArgs("run"), "--skip-preflight"));

        JsonNode evidence = evidence(out).path("backfill");
        assertThat(evidence.path("phase").asText()).isEqualTo("HandoffCommitted");
        assertThat(evidence.path("preflight").path("result").asText()).isEqualTo("skipped");
        assertThat(evidence.path("preflight").path("skipped_by").asText()).isEqualTo("--skip-preflight");
        assertThat(evidence.path("publication").path("uncovered_source_rows").asLong(-1)).isZero();
        f.assertPublishedExactlyTheSource();
    }

    @Test
    void rollbackAfterAWriteToThePublishedTableRefusesWithoutAcceptWritesAndRecordsItWithIt() throws Exception {
        CampaignFixture f = new CampaignFixture(dir, "rollback_writes", 900, 4, 2);
        String out = f.cli(0, f.runArgs("run"));
        assertThat(evidence(out).path("backfill").path("preflight").path("result").asText()).isEqualTo("passed");
        f.target.execute("INSERT INTO public.items VALUES ('00000000-0000-0000-0000-000000000099', 99, 'incremental sync')");
        String[] rollback = {"rollback", f.campaignFile.toString(), "--secrets", f.secretsFile.toString(), "--reason", "bad data"};

        String refused = f.cli(EXIT_BLOCKED, rollback);

        assertThat(refused).contains("rollback refused").contains("900 row(s) then, 901 now").contains("--accept-writes");
        assertThat(f.target.queryForLong("SELECT count(*) FROM public.items")).isEqualTo(901);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.rollback_receipt")).isZero();

        assertThat(f.cli(0, with(rollback, "--accept-writes"))).contains("accepted: 900 row(s) then, 901 now");
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.rollback_receipt WHERE accepted_writes LIKE 'accepted: 900%'")).isEqualTo(1);
        assertThat(f.target.queryForLong("SELECT count(*) FROM public.items WHERE note = 'the old table'")).isEqualTo(1);
    }
}
