package io.dpone.backfill.operator.driver;

import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Renews every campaign lease this operator holds, from its own thread, every {@code renewEvery} (30 s by default,
 * 90 s TTL), however long a reconcile pass takes (validation of a large table, publication). A refused renewal
 * means another driver owns the campaign: the session is marked, and the next pass stops driving it. Its heartbeat
 * feeds the liveness check.
 */
public final class LeaseKeeper implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(LeaseKeeper.class);

    private final ScheduledExecutorService scheduler;
    private final Clock clock;
    private final Duration renewEvery;
    private final AtomicLong lastTick = new AtomicLong();

    public LeaseKeeper(Supplier<Collection<CampaignHold>> sessions, Duration renewEvery, Duration ttl, Clock clock,
                       Consumer<CampaignHold> onLost) {
        this.clock = clock;
        this.renewEvery = renewEvery;
        this.lastTick.set(clock.millis());
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "backfill-lease-keeper");
            t.setDaemon(true);
            return t;
        });
        long every = Math.max(100, renewEvery.toMillis());
        scheduler.scheduleWithFixedDelay(() -> {
            lastTick.set(clock.millis());
            for (CampaignHold s : sessions.get()) {
                try {
                    if (!s.renew(ttl)) {
                        LOG.warnf("campaign lease of %s was taken over by another driver; this operator stops driving it", s.runKey());
                        onLost.accept(s);
                    }
                } catch (RuntimeException e) {
                    LOG.warnf("campaign lease renewal of %s failed (retrying): %s", s.runKey(), e.getMessage());
                }
                // A state connection that stopped answering: the pass blocked on it fails, and the next one reconnects.
                if (s.renewalSilent()) {
                    LOG.warnf("no lease renewal of %s succeeded for most of its TTL: aborting its connections", s.runKey());
                    s.runtime().abortConnections();
                }
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    /** True while the renewal loop runs on schedule (it missed fewer than three beats). */
    public boolean alive() {
        return !scheduler.isShutdown()
                && Duration.between(Instant.ofEpochMilli(lastTick.get()), clock.instant()).compareTo(renewEvery.multipliedBy(3)) < 0;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
