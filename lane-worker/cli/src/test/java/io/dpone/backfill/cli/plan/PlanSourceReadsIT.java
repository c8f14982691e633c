package io.dpone.backfill.cli.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.source.SourceReadCost;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code plan}'s source reads (issue 41): with the source's Secret it predicts them on the real source, in text under
 * the unchanged summary line and in JSON; without, it touches nothing and says what the estimate needs.
 */
class PlanSourceReadsIT {
    private static final String CAMPAIGN = OrdersCampaign.yaml("{column: id, kind: uuid, buckets: 32}", "");

    @TempDir
    Path dir;

    @Test
    void withTheSourcesSecretPlanPredictsTheReadsUnderItsSummaryLine() throws Exception {
        PostgresDatabase source = PostgresDatabase.fresh("plan_reads");
        source.execute("CREATE TABLE public.orders (id uuid NOT NULL PRIMARY KEY, note text)",
                "INSERT INTO public.orders SELECT gen_random_uuid(), 'order ' || i FROM generate_series(1, 20000) i",
                "VACUUM ANALYZE public.orders");
        Path secrets = Files.writeString(dir.resolve("secrets.yaml"), """
                apiVersion: v1
                kind: Secret
                metadata: {name: src-db}
                stringData:
                  jdbcUrl: "%s"
                """.formatted(source.jdbcUrl()));
        CampaignBlueprint blueprint = CampaignBlueprint.of(CampaignReader.parse(CAMPAIGN));

        SourceReadCost reads = PlanSourceReads.of(blueprint, List.of(secrets), Map.of());
        String[] text = PlanReport.text(blueprint, reads).split("\n");
        JsonNode json = new ObjectMapper().readTree(PlanReport.json(blueprint, false, reads)).path("sourceReads");

        assertThat(text[0]).isEqualTo(PlanReport.summaryLine(blueprint));
        assertThat(text[text.length - 1]).startsWith("source reads: about ").contains("over 32 chunks")
                .contains("uuid keys of id lie in random order in the heap");
        assertThat(reads.factor()).isGreaterThan(2.0);
        assertThat(json.path("factor").asDouble()).isEqualTo(Math.round(reads.factor() * 10) / 10.0);
        assertThat(json.path("tablePages").asLong()).isEqualTo(reads.tablePages()).isPositive();
        assertThat(json.path("basis").asText()).contains("pg_stats correlation");
    }

    @Test
    void withoutTheSourcePlanTouchesNothingAndSaysWhatTheEstimateNeeds() throws Exception {
        CampaignBlueprint blueprint = CampaignBlueprint.of(CampaignReader.parse(CAMPAIGN));

        SourceReadCost reads = PlanSourceReads.of(blueprint, List.of(), Map.of());

        assertThat(PlanReport.text(blueprint, reads)).endsWith("\nsource reads: not estimated: needs the source (plan"
                + " touched no database): pass --secrets FILE holding the Secret 'src-db', or set BACKFILL_SOURCE_JDBC_URL");
        JsonNode json = new ObjectMapper().readTree(PlanReport.json(blueprint, false, reads)).path("sourceReads");
        assertThat(json.path("factor").isNull()).as("no factor without the source").isTrue();
        assertThat(json.path("basis").asText()).startsWith("not estimated: needs the source");
    }
}
