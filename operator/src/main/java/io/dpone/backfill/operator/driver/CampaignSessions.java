package io.dpone.backfill.operator.driver;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.wiring.CampaignSession;
import io.dpone.backfill.wiring.StaleSessionIds;
import org.jboss.logging.Logger;

import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One {@link DriverSession} per active campaign (keyed by the resource's uid), opened on demand and closed when the
 * campaign settles, is deleted, changes run key or connection settings, or the operator stops. Bounded by the
 * number of active campaigns; settled campaigns hold no connection and no lease.
 */
public final class CampaignSessions implements AutoCloseable {
    private static final String APP = "backfill-operator";
    private static final Logger LOG = Logger.getLogger(CampaignSessions.class);

    private final Map<String, DriverSession> sessions = new ConcurrentHashMap<>();
    /** Server sessions of abandoned sessions, per campaign: the next session ends them first (ADR 0020). */
    private final Map<String, StaleSessionIds> stale = new ConcurrentHashMap<>();
    private final EngineTimings timings;
    private final LeaseKeeper keeper;

    public CampaignSessions(EngineTimings timings, Clock clock) {
        this.timings = timings;
        this.keeper = new LeaseKeeper(sessions::values, timings.renewEvery(), timings.leaseTtl(), clock, s -> { });
    }

    public DriverSession open(String key, CampaignBlueprint blueprint, ConnectionSettings source, ConnectionSettings target)
            throws SQLException {
        String runKey = blueprint.identity().runKey();
        String fingerprint = Integer.toHexString(Objects.hash(source.jdbcUrl(), source.user(), source.password(),
                target.jdbcUrl(), target.user(), target.password()));
        DriverSession existing = sessions.get(key);
        if (existing != null && existing.runKey().equals(runKey) && existing.connectionFingerprint().equals(fingerprint)) {
            return existing;
        }
        release(key);
        CampaignSession session = CampaignSession.open(blueprint, source::open, target::open, timings, APP);
        StaleSessionIds abandoned = stale.remove(key);
        if (abandoned != null) {
            // A half-open state session still holds the driver lock: without this the claim would wait for it.
            LOG.infof("campaign %s: ended %d stale session(s) of its lost connections", runKey, session.endStale(abandoned));
        }
        DriverSession opened = new DriverSession(session, runKey, fingerprint);
        sessions.put(key, opened);
        return opened;
    }

    /** Releases the lease and closes the connections of one campaign; a no-op when none is open. */
    public void release(String key) {
        DriverSession s = sessions.remove(key);
        if (s != null) {
            s.close();
        }
    }

    /**
     * After a lost connection: aborts the session's connections without asking anything of the server, and
     * remembers its server sessions for the next session of this campaign to end.
     */
    public void abandon(String key) {
        DriverSession s = sessions.remove(key);
        if (s != null) {
            stale.put(key, s.session().sessionIds());
            s.abandon();
        }
    }

    public boolean isOpen(String key) {
        return sessions.containsKey(key);
    }

    public List<String> openKeys() {
        return List.copyOf(sessions.keySet());
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
        for (String key : List.copyOf(sessions.keySet())) {
            release(key);
        }
    }
}
