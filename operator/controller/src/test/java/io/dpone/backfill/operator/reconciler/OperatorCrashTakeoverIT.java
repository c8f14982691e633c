package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An operator dies while lanes load (a killed pod, a lost node: nothing is released) and a new instance starts (a
 * restart or a leader change). The dead instance's database session is gone, so its driver lock is free: the new
 * instance takes the campaign over at once with a new epoch (ADR 0016), although the dead one's lease row still has
 * ten minutes to run, and finishes it exactly once.
 */
class OperatorCrashTakeoverIT extends OperatorSuite {
    private static final EngineTimings TEN_MINUTE_LEASE = new EngineTimings(Duration.ofMinutes(10), Duration.ofMillis(500),
            Duration.ofSeconds(10), Duration.ofSeconds(3));

    @Test
    void aNewOperatorTakesOverAtOnceWhenTheOldOnesSessionIsGone() throws Exception {
        harness(200_000);
        TestOperator dead = h.startOperator(TestOperator.settings("operator-a", TEN_MINUTE_LEASE));
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_takeover", 64, 1, ""));
        Await.until(Duration.ofSeconds(60), () -> receipts(h.db.target) >= 2, () -> "no chunk committed");

        dead.crash();
        endOperatorSessions(h.db.target);
        endOperatorSessions(h.db.source);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.campaign WHERE lease_owner = 'operator-a'"
                + " AND lease_expires > now() + interval '5 minutes'")).as("the dead operator's lease row runs for minutes").isEqualTo(1);
        // Its lanes (pods of their own) may still commit every chunk, but with no driver the phase cannot move on.
        assertThat(h.db.target.queryForStrings("SELECT phase FROM backfill_state.campaign")).as("it died mid-loading")
                .containsExactly("Loading");

        h.startOperator("operator-b");
        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(120));

        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
        assertThat(receipts(h.db.target)).isEqualTo(64);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.publication_receipt")).isEqualTo(1);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.campaign WHERE lease_owner = 'operator-a'"))
                .as("the new instance holds, then releases, the campaign").isZero();
        h.awaitEvents("CampaignTakenOver");
        assertThat(h.events()).filteredOn(e -> "CampaignTakenOver".equals(e.getReason()))
                .singleElement().satisfies(e -> assertThat(e.getMessage()).contains("took the campaign over from operator-a"));
    }

    private static long receipts(PostgresDatabase target) throws Exception {
        return target.queryForLong("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'backfill_state'"
                + " AND table_name = 'chunk_receipt'") == 0 ? 0 : target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt");
    }

    /** The server ends the dead operator's backends and returns once they are gone (lanes have their own names). */
    private static void endOperatorSessions(PostgresDatabase db) throws Exception {
        db.queryForLong("SELECT count(*) FROM (SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity"
                + " WHERE datname = current_database() AND application_name LIKE 'backfill-operator-%') ended");
    }
}
