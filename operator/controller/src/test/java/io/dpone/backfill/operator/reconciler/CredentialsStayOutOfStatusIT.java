package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.StatusJson;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 39, item 2, in the cluster: each way a campaign's connection can fail, with a distinctive password in its
 * Secret, and every channel the operator writes to people who may not read that Secret: the status (conditions,
 * recommendedAction, every other field), the Events and the metrics' labels. Each campaign is first seen to fail the
 * expected way, with the driver's own words in its condition, so no case passes by failing somewhere harmless.
 *
 * <p>The drivers' behaviour with these URLs: PostgresConnectionErrorsTest (pgjdbc 42.7.10 quotes an unparseable URL
 * whole in "Unable to parse URL") and MssqlConnectionErrorsTest (mssql-jdbc 13.2.1 quotes an authority's password as
 * a port number); a wrong password meets a real password check (PostgresDatabase.requirePassword).
 */
class CredentialsStayOutOfStatusIT extends OperatorSuite {
    private static final String PASSWORD = "S3cr3t-Pa55-XYZ%zz";
    private static final String ENCODED = "S3cr3t-Pa55-XYZ%25zz";
    private static final String CORE = "S3cr3t-Pa55-XYZ";

    /** A failing campaign: the Secret its source (or target) names, the condition reason and words it must show. */
    private record Failure(String name, Map<String, String> sourceSecret, Map<String, String> targetSecret, String targetType,
                           String reason, String driverSays) {
    }

    @Test
    void noPasswordReachesTheStatusTheEventsOrTheMetricsWhateverTheConnectionFailure() throws Exception {
        harness(10);
        PostgresDatabase guarded = PostgresDatabase.fresh("oppw");
        String login = "op_login_" + guarded.name().substring(guarded.name().lastIndexOf('_') + 1);
        guarded.requirePassword(login, "the-right-one");
        Map<String, String> goodTarget = Map.of("jdbcUrl", h.db.target.jdbcUrl());
        List<Failure> failures = List.of(
                new Failure("unparseable-url", Map.of("jdbcUrl", "jdbc:postgresql://127.0.0.1:1/app?user=loader&password=" + PASSWORD),
                        goodTarget, "postgres", "DatabaseUnavailable", "Unable to parse URL"),
                new Failure("bad-port", Map.of("jdbcUrl", "jdbc:postgresql://127.0.0.1:notaport/app?password=" + ENCODED,
                        "user", "loader", "password", PASSWORD), goodTarget, "postgres", "DatabaseUnavailable", "Unable to parse URL"),
                new Failure("authority", Map.of("jdbcUrl", "jdbc:postgresql://loader:" + ENCODED + "@127.0.0.1/app"),
                        goodTarget, "postgres", "DatabaseUnavailable", "Unable to parse URL"),
                new Failure("wrong-password", Map.of("jdbcUrl", guarded.jdbcUrl().replace("?user=postgres", ""), "user", login,
                        "password", PASSWORD), goodTarget, "postgres", "DatabaseUnavailable", "password authentication failed"),
                new Failure("unreachable", Map.of("jdbcUrl", "jdbc:postgresql://127.0.0.1:1/app?user=loader&sslpassword=" + ENCODED,
                        "password", PASSWORD), goodTarget, "postgres", "DatabaseUnavailable", "refused"),
                new Failure("mssql-port", Map.of("jdbcUrl", h.db.source.jdbcUrl()),
                        Map.of("jdbcUrl", "jdbc:sqlserver://sa:" + PASSWORD + "@127.0.0.1:1433;databaseName=app", "password", PASSWORD),
                        "mssql", "DatabaseUnavailable", "port number"),
                new Failure("other-engine-url", Map.of("jdbcUrl", "jdbc:postgres://loader:" + PASSWORD + "@127.0.0.1/app"),
                        goodTarget, "postgres", "SecretInvalid", "jdbcUrl must start with jdbc:postgresql:"));
        for (Failure f : failures) {
            h.db.secret(h.client, OperatorHarness.NS, f.name() + "-src", f.sourceSecret());
            h.db.secret(h.client, OperatorHarness.NS, f.name() + "-tgt", f.targetSecret());
            h.apply(campaign(f));
        }
        TestOperator operator = h.startOperator("operator-a");

        for (Failure f : failures) {
            Await.until(Duration.ofSeconds(60), () -> condition(f) != null, () -> f.name() + ": no " + f.reason() + " condition: "
                    + (h.status(f.name()) == null ? null : StatusJson.write(h.status(f.name()))));
            assertThat(condition(f).getMessage()).as(f.name() + ": failed the expected way").contains(f.driverSays());
            assertThat(StatusJson.write(h.status(f.name()))).as(f.name() + ": the status").doesNotContain(CORE);
            assertThat(h.status(f.name()).getRecommendedAction()).as(f.name() + ": recommendedAction").contains(f.driverSays());
        }
        h.awaitEvents("DatabaseUnavailable", "SecretInvalid");
        List<Event> events = h.events();
        assertThat(events).extracting(Event::getMessage).as("the Events").isNotEmpty()
                .allSatisfy(message -> assertThat(message).doesNotContain(CORE));
        assertThat(events).extracting(Event::getMessage).anySatisfy(m -> assertThat(m).contains("Unable to parse URL"));
        for (Meter meter : operator.registry.getMeters()) {
            assertThat(meter.getId().getTags()).extracting(Tag::getValue).as(meter.getId().getName())
                    .allSatisfy(value -> assertThat(value).doesNotContain(CORE));
        }
    }

    private CampaignCondition condition(Failure f) {
        var status = h.status(f.name());
        return status == null || status.getConditions() == null ? null : status.getConditions().stream()
                .filter(c -> f.reason().equals(c.getReason()) && c.getMessage() != null && c.getMessage().contains(f.driverSays()))
                .findFirst().orElse(null);
    }

    private static BackfillCampaign campaign(Failure f) {
        String yaml = CampaignYaml.campaign(f.name().replace('-', '_')).name(f.name()).namespace(OperatorHarness.NS)
                .secrets(f.name() + "-src", f.name() + "-tgt").chunk(CampaignYaml.uuidChunks(2)).render();
        if (f.targetType().equals("mssql")) {
            yaml = yaml.replace("target: {type: postgres,", "target: {type: mssql, schema: dbo,");
        }
        return Serialization.unmarshal(yaml, BackfillCampaign.class);
    }
}
