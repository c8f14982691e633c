package io.dpone.backfill.operator.driver;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.core.engine.DatabaseFailureException.Kind;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Transient database failures are retried; permanent ones stop the pass with a reason and the retry annotation. */
class DatabaseFailuresTest {
    private static BackfillCampaign campaign() {
        BackfillCampaign c = new BackfillCampaign();
        c.setMetadata(new ObjectMetaBuilder().withName("orders").withNamespace("shop").build());
        return c;
    }

    @Test
    void aTransientFailureWaitsAndRetriesWithItsReason() {
        DriveOutcome outcome = DatabaseFailures.outcome(new DatabaseFailureException(Kind.TRANSIENT, "ConnectionLost",
                "connection reset", null), campaign(), Duration.ofSeconds(15), Optional.empty());

        assertThat(outcome).isEqualTo(new DriveOutcome.Waiting("ConnectionLost", "connection reset", Duration.ofSeconds(15)));
    }

    @Test
    void aTransientFailureCarriesWhatTheLedgerStillSaysForTheStatus() {
        BackfillCampaignStatus ledger = new BackfillCampaignStatus();
        ledger.setPhase(CampaignPhase.Validating);

        DriveOutcome outcome = DatabaseFailures.outcome(new DatabaseFailureException(Kind.TRANSIENT, "SwapFailed",
                "rename refused", null), campaign(), Duration.ofSeconds(15), Optional.of(ledger));

        assertThat(outcome).isInstanceOfSatisfying(DriveOutcome.Waiting.class,
                w -> assertThat(w.ledgerView()).containsSame(ledger));
    }

    @Test
    void aPermanentFailureStopsRetryingAndSaysHowToAskAgain() {
        DriveOutcome outcome = DatabaseFailures.outcome(new DatabaseFailureException(Kind.PERMANENT, "MissingPrivilege",
                "permission denied for schema backfill_state", null), campaign(), Duration.ofSeconds(15), Optional.empty());

        assertThat(outcome).isInstanceOfSatisfying(DriveOutcome.Refused.class, r -> {
            assertThat(r.reason()).isEqualTo("MissingPrivilege");
            assertThat(r.message()).contains("permission denied");
            assertThat(r.recommendedAction()).contains("kubectl annotate bfc orders -n shop").contains(OperatorActions.RETRY);
        });
    }
}
