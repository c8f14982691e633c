package io.dpone.backfill.cli.run;

import io.dpone.backfill.core.driver.CampaignOpener;
import io.dpone.backfill.core.driver.Healing;
import io.dpone.backfill.core.driver.HeldCampaign;
import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.core.heal.ConnectionLoss;
import io.dpone.backfill.core.heal.HealingTimings;
import io.dpone.backfill.core.heal.ReconnectBackoff;
import io.dpone.backfill.wiring.CampaignRuntime;
import io.dpone.backfill.wiring.StaleSessionIds;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * How `backfill run` heals within the run (ADR 0020): a lock timeout, deadlock or serialization failure on a live
 * connection repeats the step after a pause; a lost connection gets a new session, the old one's server sessions
 * ended first (a half-open state session would keep the driver lock), and the campaign claimed again under a new
 * epoch; anything else ends the run. Bounded by the reconnect budget of one outage.
 */
final class Reconnect implements Healing {
    /** Failures of a statement on a live connection that a repeated step clears by itself. */
    private static final Set<String> RETRIED_IN_PLACE = Set.of("LockTimeout", "Deadlock", "SerializationFailure",
            "ServiceBusy", "InsufficientResources");

    private final LocalDriver.SessionOpener opener;
    private final Function<CampaignRuntime, RuntimeSession> sessions;
    private final CampaignOpener campaigns;
    private final DriverHold hold;
    private final HealingTimings timings;
    private final ReconnectBackoff backoff;
    private final Consumer<String> log;

    Reconnect(LocalDriver.SessionOpener opener, Function<CampaignRuntime, RuntimeSession> sessions, CampaignOpener campaigns,
              DriverHold hold, HealingTimings timings, Consumer<String> log) {
        this.opener = opener;
        this.sessions = sessions;
        this.campaigns = campaigns;
        this.hold = hold;
        this.timings = timings;
        this.backoff = timings.backoff();
        this.log = log;
    }

    @Override
    public HeldCampaign heal(HeldCampaign failed, RuntimeException failure) throws Exception {
        if (ConnectionLoss.is(failure)) {
            hold.reconnecting(true);
            try {
                return reconnect(failure);
            } finally {
                hold.reconnecting(false);
            }
        }
        if (failure instanceof DatabaseFailureException e && e.isTransient() && RETRIED_IN_PLACE.contains(e.reason())) {
            retryLater(e);
            return failed;
        }
        throw failure;
    }

    @Override
    public void healed() {
        backoff.healed();
    }

    private void retryLater(DatabaseFailureException e) throws InterruptedException {
        Optional<Duration> wait = backoff.failed();
        if (wait.isEmpty()) {
            log.accept("driver: still failing after the reconnect budget (" + timings.budget().toSeconds() + " s); giving up");
            throw e;
        }
        log.accept(String.format("driver: transient failure (%s): %s; stepping again in %.1f s", e.reason(),
                ConnectionLoss.describe(e), wait.get().toMillis() / 1000.0));
        Thread.sleep(wait.get().toMillis());
    }

    private HeldCampaign reconnect(RuntimeException cause) throws Exception {
        CampaignRuntime lost = hold.session();
        StaleSessionIds stale = lost.sessionIds();
        lost.abortConnections();
        lost.close();
        Exception last = cause;
        while (true) {
            backoff.pauseOrGiveUp("driver: connection lost", last, log);
            CampaignRuntime fresh;
            try {
                fresh = opener.open();
            } catch (SQLException | RuntimeException e) {
                if (!ConnectionLoss.is(e)) {
                    throw e;
                }
                last = e;
                continue;
            }
            try {
                int ended = fresh.endStale(stale);
                // The new engine has not seen pre-flight: a campaign still Planned is checked again before preparing.
                HeldCampaign again = campaigns.reopen(sessions.apply(fresh), backoff.remaining());
                hold.took(fresh, again.lease());
                log.accept("driver: reconnected; ended " + ended + " stale session(s); campaign taken back with epoch "
                        + again.lease().epoch());
                return again;
            } catch (RuntimeException e) {
                fresh.close();
                if (!ConnectionLoss.is(e)) {
                    throw e;
                }
                last = e;
            }
        }
    }
}
