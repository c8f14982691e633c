package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.digest.CanonicalJson;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.InMemoryLedger;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadingGateTest {
    private static final Duration TTL = Duration.ofSeconds(60);

    private final InMemoryLedger ledger = new InMemoryLedger();
    private final LedgerStore driver = ledger.connect();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private String runKey;
    private CampaignLease lease;

    private void planned() {
        driver.ensureSchema();
        CampaignBlueprint b = CampaignBlueprint.of(CampaignReader.parse(CampaignYamlFixture.postgres()));
        runKey = driver.createCampaign(b, CanonicalJson.write(b.definition().spec())).runKey();
        lease = driver.acquireLease(runKey, "driver", TTL).orElseThrow();
    }

    private LoadingGate gate() {
        return new LoadingGate(ledger.connect(), runKey, log::add);
    }

    @Test
    void aLaneStartedWhileTheCampaignIsPreparedWaitsUntilLoadingThenGoes() throws Exception {
        planned();
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return gate().await(() -> true);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(3 * LoadingGate.POLL.toMillis());
        assertThat(waiting).as("still preparing").isNotDone();
        assertThat(driver.transition(lease, CampaignPhase.Planned, CampaignPhase.Prepared, "{}")).isTrue();
        Thread.sleep(2 * LoadingGate.POLL.toMillis());
        assertThat(waiting).as("prepared is not loading").isNotDone();

        assertThat(driver.transition(lease, CampaignPhase.Prepared, CampaignPhase.Loading, "{}")).isTrue();

        assertThat(waiting.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(log).containsExactly("campaign is Planned: waiting for preparation to finish", "campaign is Loading: starting");
    }

    @Test
    void aLaneOfALoadingOrLaterCampaignGoesAtOnceAndSaysNothing() throws Exception {
        planned();
        driver.transition(lease, CampaignPhase.Planned, CampaignPhase.Prepared, "{}");
        driver.transition(lease, CampaignPhase.Prepared, CampaignPhase.Loading, "{}");
        assertThat(gate().await(() -> true)).isTrue();
        driver.transition(lease, CampaignPhase.Loading, CampaignPhase.Blocked, "{}");
        assertThat(gate().await(() -> true)).as("the worker then stops on the phase").isTrue();
        assertThat(log).isEmpty();
    }

    @Test
    void aStopRequestedDuringPreparationLetsTheLaneGoToItsWorkerWhichStops() throws Exception {
        planned();
        assertThat(driver.setStopRequested(lease, true)).isTrue();
        assertThat(gate().await(() -> true)).isTrue();
    }

    @Test
    void aLaneWhoseDriverIsGoneStopsWaiting() throws Exception {
        planned();
        AtomicBoolean driverAlive = new AtomicBoolean(true);
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return gate().await(driverAlive::get);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(2 * LoadingGate.POLL.toMillis());
        driverAlive.set(false);

        assertThat(waiting.get(5, TimeUnit.SECONDS)).isFalse();
        assertThat(log).last().asString().contains("the driver that started this lane is gone while the campaign was Planned");
    }

    @Test
    void aRunKeyNotInTheLedgerIsAnError() {
        driver.ensureSchema();
        runKey = "rk-unknown";
        assertThatThrownBy(() -> gate().await(() -> true)).hasMessageContaining("rk-unknown is not in the ledger");
    }
}
