package io.dpone.backfill.operator.driver;

import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.LeaseHeartbeat;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.wiring.CampaignRuntime;

import java.time.Duration;

/**
 * The operator's hold on one campaign: its connections (source, state and target connections, kept between
 * passes), the campaign's driver lock on the state connection, and the campaign lease, renewed by the
 * {@link LeaseKeeper}; a renewal that finds the lock gone (the connection was lost) is a lost lease. The engine is rebuilt every pass from the
 * current blueprint, so a changed {@code suspend} or lane setting (outside the run key) takes effect at once.
 */
public final class CampaignHold implements AutoCloseable {
    private final CampaignRuntime runtime;
    private final String runKey;
    private final String connectionFingerprint;
    private volatile CampaignLease lease;
    private volatile boolean leaseLost;
    private volatile LeaseHeartbeat heartbeat;

    CampaignHold(CampaignRuntime runtime, String runKey, String connectionFingerprint) {
        this.runtime = runtime;
        this.runKey = runKey;
        this.connectionFingerprint = connectionFingerprint;
    }

    public CampaignEngine engine(CampaignBlueprint blueprint) {
        return runtime.newEngine(blueprint);
    }

    public CampaignRuntime runtime() {
        return runtime;
    }

    public LedgerStore ledger() {
        return runtime.ledger();
    }

    public String runKey() {
        return runKey;
    }

    String connectionFingerprint() {
        return connectionFingerprint;
    }

    /**
     * Claims the campaign on this hold's state connection (ADR 0016): its driver lock, held by the connection for
     * the hold's life, and the lease, taken over at once (new epoch) from a driver whose database session is gone, renewed
     * when this hold already has it. A restarted or newly elected operator therefore takes over at once.
     */
    public CampaignClaim acquire(String owner, Duration ttl) {
        CampaignClaim claim = runtime.ledger().claimCampaign(runKey, owner, ttl);
        lease = claim instanceof CampaignClaim.Taken taken ? taken.lease() : null;
        leaseLost = false;
        heartbeat = new LeaseHeartbeat(ttl);
        return claim;
    }

    /** Called by the lease keeper: false means another driver took the campaign over. */
    synchronized boolean renew(Duration ttl) {
        CampaignLease held = lease;
        if (held == null || leaseLost) {
            return true;
        }
        if (!runtime.ledger().renewLease(held, ttl)) {
            leaseLost = true;
            lease = null;
            return false;
        }
        heartbeat.beat();
        return true;
    }

    /** True when this hold has a lease that no renewal could prove for most of its TTL. */
    boolean renewalSilent() {
        LeaseHeartbeat beat = heartbeat;
        return lease != null && !leaseLost && beat != null && beat.silent();
    }

    public void markLeaseLost() {
        leaseLost = true;
        lease = null;
    }

    public boolean holdsLease() {
        return lease != null && !leaseLost;
    }

    /**
     * After a lost connection (ADR 0020): the sockets are aborted at once, nothing more is asked of a server that
     * may not answer; the lease is left to the next hold of this operator, which ends this one's server sessions
     * and takes the campaign back under a new epoch.
     */
    public void abandon() {
        runtime.abortConnections();
        runtime.close();
    }

    /** Gives the lease back (so a successor need not wait for its expiry) and closes the connections. */
    @Override
    public synchronized void close() {
        CampaignLease held = lease;
        lease = null;
        try {
            if (held != null && !leaseLost) {
                runtime.ledger().releaseLease(held);
            }
        } catch (RuntimeException ignored) {
            // The lease expires by itself.
        } finally {
            runtime.close();
        }
    }
}
