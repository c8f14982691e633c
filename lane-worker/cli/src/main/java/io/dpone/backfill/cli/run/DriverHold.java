package io.dpone.backfill.cli.run;

import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.LeaseHeartbeat;
import io.dpone.backfill.wiring.CampaignRuntime;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * What `backfill run` holds of its campaign: its current session (a new one after each reconnect) and the campaign
 * lease, renewed from its own thread (ADR 0016). A renewal silent for most of the TTL aborts the session's
 * connections, so a step blocked on a hung connection fails and the driver reconnects (ADR 0020).
 */
final class DriverHold implements AutoCloseable {
    private final EngineTimings timings;
    private final Consumer<String> log;
    private final LeaseHeartbeat heartbeat;
    private final AtomicBoolean lost = new AtomicBoolean();
    private final ScheduledExecutorService renewer = daemon("campaign-lease-renewer");
    private final ScheduledExecutorService deadline = daemon("campaign-lease-deadline");
    private volatile CampaignRuntime session;
    private volatile CampaignLease lease;
    private volatile boolean reconnecting;

    DriverHold(EngineTimings timings, Consumer<String> log) {
        this.timings = timings;
        this.log = log;
        this.heartbeat = new LeaseHeartbeat(timings.leaseTtl());
    }

    /** A session was opened; it holds no lease yet. */
    void opened(CampaignRuntime runtime) {
        session = runtime;
    }

    /** The campaign was claimed on {@code runtime}: its lease is renewed from now on. */
    void took(CampaignRuntime runtime, CampaignLease taken) {
        lease = taken;
        heartbeat.beat();
        session = runtime;
    }

    /** Starts renewing the lease taken, and watching that renewals succeed. */
    void keep() {
        long every = timings.renewEvery().toMillis();
        renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
        long check = Math.max(100, Math.min(1000, every));
        deadline.scheduleWithFixedDelay(this::checkDeadline, check, check, TimeUnit.MILLISECONDS);
    }

    /** While a reconnect replaces the session, nothing is renewed or aborted. */
    void reconnecting(boolean underway) {
        reconnecting = underway;
    }

    CampaignRuntime session() {
        return session;
    }

    CampaignLease lease() {
        return lease;
    }

    /** True once a renewal found the lease taken by another driver. */
    boolean lost() {
        return lost.get();
    }

    /** Stops renewing and gives the lease back, so the next driver need not wait for its expiry. */
    void release() {
        renewer.shutdownNow();
        deadline.shutdownNow();
        try {
            if (!lost.get() && lease != null) {
                session.ledger().releaseLease(lease);
            }
        } catch (RuntimeException e) {
            log.accept("could not release the campaign lease (it expires by itself): " + e.getMessage());
        }
    }

    private void renew() {
        if (reconnecting) {
            return;
        }
        CampaignRuntime current = session;
        CampaignLease held = lease;
        try {
            if (current.ledger().renewLease(held, timings.leaseTtl())) {
                heartbeat.beat();
            } else if (held == lease) {
                lost.set(true);
            }
        } catch (RuntimeException e) {
            log.accept("campaign lease renewal failed (will retry): " + e.getMessage());
        }
    }

    private void checkDeadline() {
        if (reconnecting) {
            return;
        }
        if (heartbeat.silent()) {
            log.accept("driver: no lease renewal succeeded for " + heartbeat.silentSeconds() + " s: aborting its connections");
            heartbeat.beat();
            session.abortConnections();
        }
    }

    /** Closes the session the driver holds now. */
    @Override
    public void close() {
        renewer.shutdownNow();
        deadline.shutdownNow();
        CampaignRuntime current = session;
        if (current != null) {
            current.close();
        }
    }

    private static ScheduledExecutorService daemon(String name) {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }
}
