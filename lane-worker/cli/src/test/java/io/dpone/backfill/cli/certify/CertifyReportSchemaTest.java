package io.dpone.backfill.cli.certify;

import io.dpone.backfill.testsupport.RepositoryRoot;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.fault.FaultPoint;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The report certify writes matches src-docs/certify-report.schema.json, passed or failed, on every route. */
class CertifyReportSchemaTest {
    static final Path SCHEMA = RepositoryRoot.resolve("src-docs", "certify-report.schema.json");

    static Set<ValidationMessage> validate(JsonNode report) throws Exception {
        JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(Files.readString(SCHEMA));
        return schema.validate(report);
    }

    private static CertifyReport report(TargetType target, String version, boolean allReached) {
        CertifyReport r = new CertifyReport(target, Instant.parse("2026-12-01T18:00:00Z"));
        r.campaign("orders-initial", "orders_v1", "public.orders", "dbo.orders");
        r.servers("PostgreSQL 17.6", version);
        r.notProven(NotProven.on(target, TargetDialect.isBabelfish(version)));
        r.scratch("bf_certify_x", CertifyScratch.SOURCE_TABLE, CertifyScratch.LIVE_TABLE, Path.of("/tmp/w"));
        r.sampleRows(8000);
        Map<FaultPoint, List<String>> coverage = new LinkedHashMap<>();
        for (FaultPoint p : FaultPoint.values()) {
            coverage.put(p, new ArrayList<>());
        }
        for (Scenario s : Scenario.all()) {
            ScenarioOutcome o = new ScenarioOutcome(s);
            o.backfillId = "bf_certify_x_1";
            o.runKey = "rk";
            o.sourceRows = 8000;
            boolean reached = allReached || s.point() != FaultPoint.MID_COPY;
            if (reached) {
                o.fault = new ChildRun.Fault(s.point().wireName(), s.role() == Scenario.Role.LANE ? 3 : -1, 42, "lane-0", true);
                coverage.get(s.point()).add(s.id());
                o.check("fault-point-reached", true, "stopped");
                o.missingKeys = 0;
                o.duplicateKeys = 0;
                o.unexpectedKeys = 0;
                o.publishedRows = 8000;
                o.resumeActions = s.resumes() ? 1 : 0;
                o.resumeExitCode = s.resumes() ? 0 : null;
                o.liveCountsSeen.put(0L, 10L);
                o.liveCountsSeen.put(8000L, 5L);
            } else {
                o.check("fault-point-reached", false, "exited 0 without reaching mid-copy");
            }
            r.scenario(o);
        }
        r.coverage(coverage);
        r.scratchDropped(List.of());
        r.finish(Instant.parse("2026-12-01T18:02:00Z"));
        return r;
    }

    @Test
    void aPassingPostgresReportMatchesTheSchema() throws Exception {
        CertifyReport r = report(TargetType.POSTGRES, "PostgreSQL 17.6", true);
        assertThat(r.passed()).isTrue();
        assertThat(validate(r.json())).isEmpty();
        assertThat(r.json().get("faultPointCoverage").get("complete").asBoolean()).isTrue();
    }

    @Test
    void aFailedBabelfishReportMatchesTheSchemaAndSaysWhatIsNotProven() throws Exception {
        CertifyReport r = report(TargetType.MSSQL, "Babelfish for PostgreSQL with SQL Server Compatibility - 12.0.2000.8", false);
        assertThat(r.passed()).isFalse();
        JsonNode json = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(r.json()));
        assertThat(validate(json)).isEmpty();
        assertThat(json.get("route").get("engine").asText()).isEqualTo("babelfish");
        assertThat(json.get("faultPointCoverage").get("notReached").toString()).contains("mid-copy");
        assertThat(json.get("notProvenOnThisEngine").toString()).contains("temporal");
    }

    @Test
    void theSchemaRejectsAReportWithoutCoverage() throws Exception {
        var json = report(TargetType.POSTGRES, "PostgreSQL 17.6", true).json();
        json.remove("faultPointCoverage");
        assertThat(validate(json)).isNotEmpty();
    }

    @Test
    void everyFaultPointIsArmedByAtLeastOneScenario() {
        assertThat(Scenario.all().stream().map(Scenario::point).distinct()).containsExactlyInAnyOrder(FaultPoint.values());
        assertThat(Scenario.all()).filteredOn(Scenario::resumes).hasSize(Scenario.all().size() - 1);
    }
}
