package io.dpone.backfill.operator.driver;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.doctor.Preflight;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.postgres.PostgresEndpoint;
import io.dpone.backfill.testsupport.net.FaultyTcpProxy;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator after a lost state connection (ADR 0020): the connection went half-open, so the server still holds
 * its session and with it the campaign's driver lock. Abandoning the session and opening the next one ends that
 * server session first, so the operator takes its campaign back at once, under a new epoch, instead of waiting for
 * a lock only it could ever release.
 */
class AbandonedSessionIT {
    private static final EngineTimings TIMINGS = new EngineTimings(Duration.ofMinutes(10), Duration.ofSeconds(30),
            Duration.ofSeconds(10), Duration.ofSeconds(3));

    @Test
    void theNextSessionEndsAHalfOpenSessionAndTakesTheCampaignBackAtOnce() throws Exception {
        PostgresDatabase source = PostgresDatabase.fresh("abandonsrc");
        PostgresDatabase target = PostgresDatabase.fresh("abandontgt");
        ItemsTable.createWithRows(source, 10);
        ItemsTable.createWithOldRow(target);
        CampaignBlueprint blueprint = CampaignBlueprint.of(CampaignReader.parse(CampaignYaml.campaign("abandoned_session")
                .chunk(CampaignYaml.uuidChunks(4)).parallelWorkers(1).shadowSwap().render()));
        try (FaultyTcpProxy proxy = new FaultyTcpProxy("127.0.0.1", target.server().port());
             CampaignHolds holds = new CampaignHolds(TIMINGS, Clock.systemUTC())) {
            ConnectionSettings src = new ConnectionSettings(source.jdbcUrl(), null, null, PostgresEndpoint.INSTANCE);
            ConnectionSettings tgt = new ConnectionSettings(target.jdbcUrl().replace(":" + target.server().port() + "/",
                    ":" + proxy.port() + "/"), null, null, PostgresEndpoint.INSTANCE);
            CampaignHold first = holds.open("uid-1", blueprint, src, tgt);
            first.engine(blueprint).open(Preflight.skipped("test"));
            CampaignClaim.Taken taken = (CampaignClaim.Taken) first.acquire("operator-a", TIMINGS.leaseTtl());

            assertThat(proxy.stallExisting()).as("its state and target connections go half-open").isEqualTo(2);
            holds.abandon("uid-1");
            assertThat(operatorBackends(target)).as("the server still holds the abandoned sessions").isEqualTo(2);

            long started = System.nanoTime();
            CampaignHold second = holds.open("uid-1", blueprint, src, tgt);
            CampaignClaim again = second.acquire("operator-a", TIMINGS.leaseTtl());
            assertThat(again).as("taken back, not held by its own stale session").isInstanceOf(CampaignClaim.Taken.class);
            assertThat(((CampaignClaim.Taken) again).lease().epoch()).isEqualTo(taken.lease().epoch() + 1);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("at once, not after a ten-minute lease")
                    .isLessThan(Duration.ofSeconds(30));
            assertThat(operatorBackends(target)).as("only the new session's two connections remain").isEqualTo(2);
            assertThat(target.queryForLong("SELECT lease_epoch FROM backfill_state.campaign")).isEqualTo(taken.lease().epoch() + 1);
        }
    }

    private static long operatorBackends(PostgresDatabase db) throws Exception {
        return db.queryForLong("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND application_name LIKE 'backfill-operator-%' AND application_name <> 'backfill-operator-source'");
    }
}
