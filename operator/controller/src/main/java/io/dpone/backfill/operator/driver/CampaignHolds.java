package io.dpone.backfill.operator.driver;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.wiring.CampaignRuntime;
import io.dpone.backfill.wiring.StaleSessionIds;
import org.jboss.logging.Logger;

import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link CampaignHold} per active campaign (keyed by the resource's uid), opened on demand and closed when the
 * campaign settles, is deleted, changes run key or connection settings, or the operator stops. Bounded by the
 * number of active campaigns; settled campaigns hold no connection and no lease.
 */
public final class CampaignHolds implements AutoCloseable {
    private static final String APP = "backfill-operator";
    private static final Logger LOG = Logger.getLogger(CampaignHolds.class);

    private final Map<String, CampaignHold> holds = new ConcurrentHashMap<>();
    /** Server sessions of abandoned holds, per campaign: the next hold ends them first (ADR 0020). */
    private final Map<String, StaleSessionIds> stale = new ConcurrentHashMap<>();
    private final EngineTimings timings;
    private final LeaseKeeper keeper;

    public CampaignHolds(EngineTimings timings, Clock clock) {
        this.timings = timings;
        this.keeper = new LeaseKeeper(holds::values, timings.renewEvery(), timings.leaseTtl(), clock, s -> { });
    }

    public CampaignHold open(String key, CampaignBlueprint blueprint, ConnectionSettings source, ConnectionSettings target)
            throws SQLException {
        String runKey = blueprint.identity().runKey();
        String fingerprint = Integer.toHexString(Objects.hash(source.jdbcUrl(), source.user(), source.password(),
                target.jdbcUrl(), target.user(), target.password()));
        CampaignHold existing = holds.get(key);
        if (existing != null && existing.runKey().equals(runKey) && existing.connectionFingerprint().equals(fingerprint)) {
            return existing;
        }
        release(key);
        CampaignRuntime runtime = CampaignRuntime.open(blueprint, source::open, target::open, timings, APP);
        // Reconciliation passes before the handoff (ADR 0057) log their ranges; events and status say the totals.
        runtime.logPassesTo(line -> LOG.infof("campaign %s: reconcile: %s", runKey, line));
        StaleSessionIds abandoned = stale.remove(key);
        if (abandoned != null) {
            // A half-open state session still holds the driver lock: without this the claim would wait for it.
            LOG.infof("campaign %s: ended %d stale session(s) of its lost connections", runKey, runtime.endStale(abandoned));
        }
        CampaignHold opened = new CampaignHold(runtime, runKey, fingerprint);
        holds.put(key, opened);
        return opened;
    }

    /** Releases the lease and closes the connections of one campaign; a no-op when none is open. */
    public void release(String key) {
        CampaignHold s = holds.remove(key);
        if (s != null) {
            s.close();
        }
    }

    /**
     * After a lost connection: aborts the hold's connections without asking anything of the server, and
     * remembers its server holds for the next hold of this campaign to end.
     */
    public void abandon(String key) {
        CampaignHold s = holds.remove(key);
        if (s != null) {
            stale.put(key, s.runtime().sessionIds());
            s.abandon();
        }
    }

    public boolean isOpen(String key) {
        return holds.containsKey(key);
    }

    public List<String> openKeys() {
        return List.copyOf(holds.keySet());
    }

    public EngineTimings timings() {
        return timings;
    }

    public LeaseKeeper keeper() {
        return keeper;
    }

    /** On operator shutdown: every lease is released, so a successor takes over without waiting for expiry. */
    @Override
    public void close() {
        keeper.close();
        for (String key : List.copyOf(holds.keySet())) {
            release(key);
        }
    }
}
