package io.dpone.backfill.operator.driver;

import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.wiring.CampaignSession;

import java.time.Duration;
import java.util.Optional;

/**
 * The operator's hold on one campaign: its database session (source, state and target connections, kept between
 * passes) and the campaign lease, renewed by the {@link LeaseKeeper}. The engine is rebuilt every pass from the
 * current blueprint, so a changed {@code suspend} or lane setting (outside the run key) takes effect at once.
 */
public final class DriverSession implements AutoCloseable {
    private final CampaignSession session;
    private final String runKey;
    private final String connectionFingerprint;
    private volatile CampaignLease lease;
    private volatile boolean leaseLost;

    DriverSession(CampaignSession session, String runKey, String connectionFingerprint) {
        this.session = session;
        this.runKey = runKey;
        this.connectionFingerprint = connectionFingerprint;
    }

    public CampaignEngine engine(CampaignBlueprint blueprint) {
        return session.newEngine(blueprint);
    }

    public CampaignSession session() {
        return session;
    }

    public LedgerStore ledger() {
        return session.ledger();
    }

    public String runKey() {
        return runKey;
    }

    String connectionFingerprint() {
        return connectionFingerprint;
    }

    /** Takes the campaign lease, or renews it when this operator instance already holds it. */
    public Optional<CampaignLease> acquire(String owner, Duration ttl) {
        Optional<CampaignLease> acquired = session.ledger().acquireLease(runKey, owner, ttl);
        lease = acquired.orElse(null);
        leaseLost = false;
        return acquired;
    }

    /** Called by the lease keeper: false means another driver took the campaign over. */
    synchronized boolean renew(Duration ttl) {
        CampaignLease held = lease;
        if (held == null || leaseLost) {
            return true;
        }
        if (!session.ledger().renewLease(held, ttl)) {
            leaseLost = true;
            lease = null;
            return false;
        }
        return true;
    }

    public void markLeaseLost() {
        leaseLost = true;
        lease = null;
    }

    public boolean holdsLease() {
        return lease != null && !leaseLost;
    }

    /** Gives the lease back (so a successor need not wait for its expiry) and closes the connections. */
    @Override
    public synchronized void close() {
        CampaignLease held = lease;
        lease = null;
        try {
            if (held != null && !leaseLost) {
                session.ledger().releaseLease(held);
            }
        } catch (RuntimeException ignored) {
            // The lease expires by itself.
        } finally {
            session.close();
        }
    }
}
