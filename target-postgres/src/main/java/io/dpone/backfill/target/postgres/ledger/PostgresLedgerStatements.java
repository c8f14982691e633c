package io.dpone.backfill.target.postgres.ledger;

import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkErrorText;
import io.dpone.backfill.core.ledger.ChunkEstimates;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.HandoffReceipt;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.ledger.RunningChunk;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.target.PublicationLedger;
import io.dpone.backfill.core.target.TableFingerprint;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.target.DriverLockedLease;
import io.dpone.backfill.target.ProgressCounterRow;

import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static io.dpone.backfill.target.postgres.ledger.PostgresLedgerRows.CAMPAIGN_COLUMNS;
import static io.dpone.backfill.target.postgres.ledger.PostgresLedgerRows.CHUNK_COLUMNS;

/**
 * Every ledger statement of the PostgreSQL target, on one connection: the store's (state connection), the chunk
 * sink's (a lane's sink connection, inside its chunk transaction) and the publisher's (inside the swap's
 * transaction). The schema they run against is {@code ledger/v1/postgresql.sql}. Each write is one statement,
 * fenced by owner and epoch (chunks) or by a live campaign lease on the database clock (campaign); zero rows means
 * the race was lost. Statements run in the caller's transaction, or in autocommit.
 */
public final class PostgresLedgerStatements implements PublicationLedger, DriverLockedLease.Statements {

    /** Campaign rows a lease holder may write: the lease must still be ours and still live by the database clock. */
    // The statement's own time, not now() (its transaction's start): a fence at the end of a long swap (ADR 0024)
    // must judge expiry when it runs.
    private static final String LEASE_FENCE =
            "run_key = ? AND lease_owner = ? AND lease_epoch = ? AND lease_expires >= statement_timestamp()";
    static final String TTL = "now() + ? * interval '1 millisecond'";

    /** The advisory lock key of {@code ?} (a lane lock's name prefix) followed by the row's owner. */
    private static final String OWNER_LANE_LOCK_KEY = "pg_catalog.hashtextextended(? || owner, 0)";
    private static final String ADVISORY_IN_THIS_DATABASE = "l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
            + " AND l.database = (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname = pg_catalog.current_database())";
    /**
     * No other session holds the row owner's lane lock ({@code ?} = the lane lock prefix, ADR 0021): with
     * {@code owner_locked}, the owner's session is gone, and so is every transaction it had open.
     */
    private static final String OWNER_SESSION_GONE = "(owner_locked AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_locks l"
            + " WHERE " + ADVISORY_IN_THIS_DATABASE + " AND l.pid <> pg_catalog.pg_backend_pid()"
            + " AND ((l.classid::int8 << 32) | l.objid::int8) = " + OWNER_LANE_LOCK_KEY + "))";

    /**
     * Claimable by the same rule in the read ({@link #claimable}, one branch per state) and in the claim; the retry
     * policy's part is bound by the read.
     * Parameters: the lane lock prefix, allow failed, max attempts.
     */
    private static final String CLAIMABLE = "(state = 'pending' OR (state = 'running' AND (lease_expires < now()"
            + " OR " + OWNER_SESSION_GONE + ")) OR (? AND state = 'failed' AND attempts < ?))";

    /**
     * Chunks that will (again) need a lane: not started, failed, or abandoned by a lane whose lease expired. For the
     * ETA only: a chunk whose lane's session is gone before its lease expired counts as running until then.
     */
    private static final String WAITING = "state IN ('pending', 'failed') OR (state = 'running' AND lease_expires < now())";
    private static final String LIVE_RUNNING = "state = 'running' AND lease_expires >= now()";

    /** {@code ?} = the driver lock's name: its bigint advisory lock key. */
    private static final String LOCK_KEY = "pg_catalog.hashtextextended(?, 0)";
    /**
     * This session holds the advisory lock named {@code ?} (the driver's or a lane's). pg_locks shows a bigint key
     * as classid (high 32 bits) and objid (low 32 bits) with objsubid 1.
     */
    private static final String HOLDS_LOCK = "EXISTS (SELECT 1 FROM pg_catalog.pg_locks l WHERE " + ADVISORY_IN_THIS_DATABASE
            + " AND l.pid = pg_catalog.pg_backend_pid() AND ((l.classid::int8 << 32) | l.objid::int8) = " + LOCK_KEY + ")";

    private final PostgresJdbc sql;
    private final String stateSchema;
    private final String campaign;
    private final String chunk;
    private final String chunkReceipt;
    private final String publicationReceipt;
    private final String handoffReceipt;
    private final String rollbackReceipt;
    private final String runProgress;

    public PostgresLedgerStatements(Connection connection, String stateSchema) {
        this.sql = new PostgresJdbc(connection);
        this.stateSchema = stateSchema;
        PostgresIdentifiers.quote(stateSchema); // refuse an unsafe state schema at construction, not mid-swap
        this.campaign = PostgresLedgerSchema.table(stateSchema, "campaign");
        this.chunk = PostgresLedgerSchema.table(stateSchema, "chunk");
        this.chunkReceipt = PostgresLedgerSchema.table(stateSchema, "chunk_receipt");
        this.publicationReceipt = PostgresLedgerSchema.table(stateSchema, "publication_receipt");
        this.handoffReceipt = PostgresLedgerSchema.table(stateSchema, "handoff_receipt");
        this.rollbackReceipt = PostgresLedgerSchema.table(stateSchema, "rollback_receipt");
        this.runProgress = PostgresLedgerSchema.table(stateSchema, "run_progress");
    }

    // --- schema ---

    public Integer schemaVersion() throws SQLException {
        return sql.one("SELECT max(version) AS v FROM " + PostgresLedgerSchema.table(stateSchema, "ledger_version"),
                rs -> (Integer) rs.getObject("v")).orElse(null);
    }

    /** Looked up with to_regclass, so asking creates nothing. */
    public boolean ledgerPresent() throws SQLException {
        return sql.one("SELECT pg_catalog.to_regclass(?) IS NOT NULL AS present", rs -> rs.getBoolean("present"),
                campaign).orElse(false);
    }

    // --- campaign and lease ---

    public Optional<CampaignRecord> campaign(String keyColumn, String key) throws SQLException {
        return sql.one("SELECT " + CAMPAIGN_COLUMNS + " FROM " + campaign + " WHERE " + keyColumn + " = ?",
                PostgresLedgerRows.ROWS::campaign, key);
    }

    public void insertCampaign(CampaignBlueprint blueprint, String specJson, String phase) throws SQLException {
        sql.update("INSERT INTO " + campaign + " (run_key, backfill_id, plan_digest, config_digest, spec_json,"
                        + " chunk_total, phase) VALUES (?, ?, ?, ?, ?, ?, ?)", blueprint.identity().runKey(),
                blueprint.definition().spec().getBackfillId(), blueprint.identity().planDigest(),
                blueprint.identity().configDigest(), specJson, blueprint.plan().size(), phase);
    }

    @Override
    public Optional<CampaignLease> acquireLease(String runKey, String owner, long ttlMillis) throws SQLException {
        return sql.one("UPDATE " + campaign
                        + " SET lease_epoch = CASE WHEN lease_owner = ? THEN lease_epoch ELSE lease_epoch + 1 END,"
                        + " lease_since = CASE WHEN lease_owner = ? THEN coalesce(lease_since, now()) ELSE now() END,"
                        + " lease_owner = ?, lease_expires = " + TTL
                        + " WHERE run_key = ? AND (lease_owner IS NULL OR lease_expires < now() OR lease_owner = ?)"
                        + " RETURNING lease_epoch",
                rs -> new CampaignLease(runKey, owner, rs.getLong("lease_epoch")),
                owner, owner, owner, ttlMillis, runKey, owner);
    }

    /**
     * The takeover by a driver that was just granted the campaign's driver lock: whatever the lease row says, the
     * lease becomes this owner's with epoch + 1. Returns the new epoch and the owner the row held before, if its
     * lease was still live (that driver's session is gone, or the lock would not have been granted).
     */
    @Override
    public Optional<CampaignClaim.Taken> takeOverLease(String runKey, String owner, long ttlMillis) throws SQLException {
        return sql.one("WITH before AS (SELECT run_key, lease_owner, lease_expires >= now() AS live FROM " + campaign
                        + " WHERE run_key = ? FOR UPDATE)"
                        + " UPDATE " + campaign + " c SET lease_epoch = c.lease_epoch + 1, lease_owner = ?,"
                        + " lease_expires = " + TTL + ", lease_since = now()"
                        + " FROM before b WHERE c.run_key = b.run_key"
                        + " RETURNING c.lease_epoch, CASE WHEN b.live THEN b.lease_owner END AS live_owner",
                rs -> CampaignClaim.tookOver(new CampaignLease(runKey, owner, rs.getLong("lease_epoch")),
                        rs.getString("live_owner")),
                runKey, owner, ttlMillis);
    }

    /** Who the lease row names, for a driver waiting on the driver lock (all null when nobody, or no row). */
    @Override
    public CampaignClaim.Held holder(String runKey) throws SQLException {
        return sql.one("SELECT lease_owner, lease_since, lease_expires FROM " + campaign + " WHERE run_key = ?",
                rs -> CampaignClaim.heldBy(rs.getString("lease_owner"), PostgresLedgerRows.instant(rs, "lease_since"),
                        PostgresLedgerRows.instant(rs, "lease_expires")), runKey)
                .orElseGet(() -> CampaignClaim.heldBy(null, null, null));
    }

    @Override
    public boolean renewLease(CampaignLease lease, long ttlMillis) throws SQLException {
        return fenced("lease_expires = " + TTL, "", lease, ttlMillis);
    }

    @Override
    public void releaseLease(CampaignLease lease) throws SQLException {
        sql.update("UPDATE " + campaign + " SET lease_owner = NULL, lease_expires = NULL, lease_since = NULL"
                + " WHERE run_key = ? AND lease_owner = ? AND lease_epoch = ?", lease.runKey(), lease.owner(), lease.epoch());
    }

    /** A renewal that also proves this session still holds the campaign's driver lock. */
    @Override
    public boolean renewHoldingDriverLock(CampaignLease lease, long ttlMillis) throws SQLException {
        return fenced("lease_expires = " + TTL, HOLDS_LOCK + " AND ", lease, ttlMillis, driverLockName(lease.runKey()));
    }

    // --- the campaign's driver lock (ADR 0016) ---

    /**
     * The text whose 64-bit {@code hashtextextended} is the advisory lock key: namespaced apart from the ledger's
     * and the publication's locks, and length-prefixed so that no two (state schema, run key) pairs give one text.
     */
    String driverLockName(String runKey) {
        return "dpone-backfill-driver:" + stateSchema.length() + ":" + stateSchema + ":" + runKey;
    }

    /** Session level, never waits: true when granted (or already held by this session, which stacks it once more). */
    @Override
    public boolean tryDriverLock(String runKey) throws SQLException {
        return tryAdvisoryLock(driverLockName(runKey));
    }

    private boolean tryAdvisoryLock(String name) throws SQLException {
        return sql.one("SELECT pg_catalog.pg_try_advisory_lock(" + LOCK_KEY + ") AS locked", rs -> rs.getBoolean("locked"),
                name).orElse(false);
    }

    /** A lock this session does not hold is left alone (the server answers false, with a warning). */
    @Override
    public void releaseDriverLock(String runKey) throws SQLException {
        sql.one("SELECT pg_catalog.pg_advisory_unlock(" + LOCK_KEY + ") AS released", rs -> rs.getBoolean("released"),
                driverLockName(runKey)).orElse(false);
    }

    // --- a lane's lock (ADR 0021) ---

    /** Every lane lock of the campaign starts with this: namespaced and length-prefixed like the driver lock. */
    String laneLockPrefix(String runKey) {
        return "dpone-backfill-lane:" + stateSchema.length() + ":" + stateSchema + ":" + runKey.length() + ":" + runKey + ":";
    }

    String laneLockName(String runKey, String owner) {
        return laneLockPrefix(runKey) + owner;
    }

    /** Session level, never waits: true when granted (an owner is one process, so only a stale session of it holds it). */
    public boolean tryLaneLock(String runKey, String owner) throws SQLException {
        return tryAdvisoryLock(laneLockName(runKey, owner));
    }

    /**
     * {@code UPDATE campaign SET <set> WHERE <condition> <lease fence>}; parameters are the set and condition
     * values in order, then the lease. True iff exactly one row changed.
     */
    public boolean fenced(String set, String condition, CampaignLease lease, Object... values) throws SQLException {
        Object[] params = new Object[values.length + 3];
        System.arraycopy(values, 0, params, 0, values.length);
        params[values.length] = lease.runKey();
        params[values.length + 1] = lease.owner();
        params[values.length + 2] = lease.epoch();
        return sql.update("UPDATE " + campaign + " SET " + set + " WHERE " + condition + LEASE_FENCE, params) == 1;
    }

    /**
     * Refuses a deposed driver's swap before it does any work: a read of the lease fence, which takes no row lock.
     * Only {@link #fenceSwap} at the end guarantees the lease at commit.
     */
    @Override
    public void requireLease(CampaignLease lease) throws SQLException {
        if (sql.one("SELECT 1 FROM " + campaign + " WHERE " + LEASE_FENCE, rs -> 1, lease.runKey(), lease.owner(),
                lease.epoch()).isEmpty()) {
            throw LeaseLostException.swapRefused(lease);
        }
    }

    /**
     * Proves the caller still holds the campaign lease, by the database's clock, inside the swap's transaction:
     * a driver deposed by a newer epoch, or whose lease ran out, must not publish or roll back. It runs last, just
     * before the receipt: its row lock on the campaign holds every lease renewal until commit, so proved first it
     * held the driver's renewal behind the swap's lock waits and scans, and a swap longer than most of the TTL made
     * the driver abort itself as hung (ADR 0024). Proved last, it fences the same commit.
     */
    private void fenceSwap(CampaignLease lease) throws SQLException {
        if (!fenced("updated_at = pg_catalog.now()", "", lease)) {
            throw LeaseLostException.swapFenced(lease);
        }
    }

    // --- chunks ---

    /**
     * All chunks in one statement over three parallel arrays: one round trip whatever the plan size (16384 chunks
     * take tens of milliseconds), and no dynamic SQL. Runs inside the caller's transaction.
     */
    public void insertAll(String runKey, ChunkPlan plan) throws SQLException {
        int n = plan.size();
        Integer[] ids = new Integer[n];
        String[] lowers = new String[n];
        String[] uppers = new String[n];
        for (int i = 0; i < n; i++) {
            ChunkRange range = plan.chunk(i);
            ids[i] = range.id();
            lowers[i] = plan.boundText(range.lowerInclusive());
            uppers[i] = plan.boundText(range.upperExclusive());
        }
        Connection connection = sql.connection();
        Array idArray = connection.createArrayOf("int4", ids);
        Array lowerArray = connection.createArrayOf("text", lowers);
        Array upperArray = connection.createArrayOf("text", uppers);
        try {
            sql.update("INSERT INTO " + chunk + " (run_key, chunk_id, lower_bound, upper_bound)"
                    + " SELECT ?, u.chunk_id, u.lower_bound, u.upper_bound"
                    + " FROM unnest(?::int[], ?::text[], ?::text[]) AS u (chunk_id, lower_bound, upper_bound)",
                    runKey, idArray, lowerArray, upperArray);
            // The plan row: from here on this run's progress is read from its counters (ADR 0027).
            sql.update("INSERT INTO " + runProgress + " (run_key, owner, chunks) VALUES (?, '', ?)", runKey, n);
        } finally {
            idArray.free();
            lowerArray.free();
            upperArray.free();
        }
    }

    /**
     * The counters and the estimate aggregates, from the run's progress counters ({@link #countedSql}) or, for a run
     * planned before them, one aggregate over its chunks: a chunk running with an expired lease is waiting again (its
     * lane is gone), so only live running chunks are listed with their elapsed time.
     */
    public ChunkCounts counts(String runKey, int maxAttempts) throws SQLException {
        Optional<ChunkCounts> counted = sql.one(countedSql(),
                rs -> rs.getObject("total") == null ? Optional.<ChunkCounts>empty()
                        : Optional.of(ProgressCounterRow.read(rs).counts(running(rs))),
                runKey, runKey, runKey, runKey, maxAttempts).orElseThrow();
        return counted.isPresent() ? counted.get() : aggregated(runKey, maxAttempts);
    }

    /**
     * Progress read without walking the chunks (ADR 0027), in one statement: the committed chunks' counters (one row
     * per lane that committed, and the plan row), the running and failed chunks (an index range of the claim index),
     * the chunks finished in the last minute (an index range of {@code chunk_finished}) and the first start (the head
     * of {@code chunk_started}). Pending is what remains of the plan. Total is null for a run without a plan row.
     * Parameters: run key (counters, open chunks, recent, first start), max attempts.
     */
    String countedSql() {
        return "WITH p AS (SELECT sum(chunks) FILTER (WHERE owner = '') AS total,"
                + " coalesce(sum(chunks) FILTER (WHERE owner <> ''), 0) AS committed,"
                + " coalesce(sum(rows_extracted), 0) AS rows_extracted, coalesce(sum(rows_loaded), 0) AS rows_loaded,"
                + " coalesce(sum(estimated_chunks) FILTER (WHERE owner = ''), 0) AS planned_estimated,"
                + " coalesce(sum(estimated_rows) FILTER (WHERE owner = ''), 0) AS planned_estimated_rows,"
                + " coalesce(sum(estimated_chunks) FILTER (WHERE owner <> ''), 0) AS committed_estimated,"
                + " coalesce(sum(estimated_rows) FILTER (WHERE owner <> ''), 0) AS committed_estimated_rows"
                + " FROM " + runProgress + " WHERE run_key = ?),"
                + " o AS (SELECT chunk_id, state, attempts, rows_estimated, rows_copied, started_at, lease_expires"
                + " FROM " + chunk + " WHERE run_key = ? AND state IN ('running', 'failed'))"
                + " SELECT p.*,"
                + " (SELECT coalesce(sum(rows_loaded), 0) FROM " + chunk + " WHERE run_key = ?"
                + " AND finished_at >= now() - interval '60 seconds' AND state = 'committed') AS recent_rows,"
                + " (SELECT coalesce(extract(epoch FROM now() - min(started_at)), 0) FROM " + chunk
                + " WHERE run_key = ?) AS seconds,"
                + " o.running, o.failed, o.failed_exhausted, o.live_estimated_rows,"
                + " o.running_rows, o.running_seconds, o.running_copied"
                + " FROM p, (SELECT count(*) FILTER (WHERE state = 'running') AS running,"
                + " count(*) FILTER (WHERE state = 'failed') AS failed,"
                + " count(*) FILTER (WHERE state = 'failed' AND attempts >= ?) AS failed_exhausted,"
                + " coalesce(sum(rows_estimated) FILTER (WHERE " + LIVE_RUNNING + "), 0) AS live_estimated_rows,"
                + " array_agg(rows_estimated ORDER BY chunk_id) FILTER (WHERE " + LIVE_RUNNING + ") AS running_rows,"
                + " array_agg(extract(epoch FROM now() - started_at)::float8 ORDER BY chunk_id)"
                + " FILTER (WHERE " + LIVE_RUNNING + ") AS running_seconds,"
                + " array_agg(rows_copied ORDER BY chunk_id) FILTER (WHERE " + LIVE_RUNNING + ") AS running_copied"
                + " FROM o) AS o";
    }

    /**
     * A run planned before the progress counters (no plan row): one aggregate over its chunks, as before ADR 0027.
     * Parameters: max attempts, run key.
     */
    private ChunkCounts aggregated(String runKey, int maxAttempts) throws SQLException {
        return sql.one("SELECT count(*) AS total,"
                        + " count(*) FILTER (WHERE state = 'pending') AS pending,"
                        + " count(*) FILTER (WHERE state = 'running') AS running,"
                        + " count(*) FILTER (WHERE state = 'committed') AS committed,"
                        + " count(*) FILTER (WHERE state = 'failed') AS failed,"
                        + " count(*) FILTER (WHERE state = 'failed' AND attempts >= ?) AS failed_exhausted,"
                        + " coalesce(sum(rows_extracted) FILTER (WHERE state = 'committed'), 0) AS rows_extracted,"
                        + " coalesce(sum(rows_loaded) FILTER (WHERE state = 'committed'), 0) AS rows_loaded,"
                        + " coalesce(sum(rows_loaded) FILTER (WHERE state = 'committed'"
                        + " AND finished_at >= now() - interval '60 seconds'), 0) AS recent_rows,"
                        + " coalesce(extract(epoch FROM now() - min(started_at)), 0) AS seconds,"
                        + " count(rows_estimated) AS estimated,"
                        + " count(*) FILTER (WHERE state <> 'committed' AND rows_estimated IS NULL) AS unestimated,"
                        + " coalesce(sum(rows_estimated) FILTER (WHERE " + WAITING + "), 0) AS waiting_rows,"
                        + " array_agg(rows_estimated ORDER BY chunk_id) FILTER (WHERE " + LIVE_RUNNING + ") AS running_rows,"
                        + " array_agg(extract(epoch FROM now() - started_at)::float8 ORDER BY chunk_id)"
                        + " FILTER (WHERE " + LIVE_RUNNING + ") AS running_seconds,"
                        + " array_agg(rows_copied ORDER BY chunk_id) FILTER (WHERE " + LIVE_RUNNING + ") AS running_copied"
                        + " FROM " + chunk + " WHERE run_key = ?",
                rs -> new ChunkCounts(rs.getInt("total"), rs.getInt("pending"), rs.getInt("running"),
                        rs.getInt("committed"), rs.getInt("failed"), rs.getInt("failed_exhausted"),
                        rs.getLong("rows_extracted"), rs.getLong("rows_loaded"), rs.getLong("recent_rows"),
                        Math.max(0, rs.getDouble("seconds")), estimates(rs)),
                maxAttempts, runKey).orElseThrow();
    }

    private static ChunkEstimates estimates(ResultSet rs) throws SQLException {
        boolean complete = rs.getInt("estimated") > 0 && rs.getInt("unestimated") == 0;
        return new ChunkEstimates(complete, rs.getLong("waiting_rows"), running(rs));
    }

    /** The live running chunks' estimates, elapsed seconds and rows copied, from three parallel arrays in chunk order. */
    private static List<RunningChunk> running(ResultSet rs) throws SQLException {
        List<RunningChunk> running = new ArrayList<>();
        Array rows = rs.getArray("running_rows");
        Array seconds = rs.getArray("running_seconds");
        Array copied = rs.getArray("running_copied");
        if (rows != null && seconds != null && copied != null) {
            Object[] r = (Object[]) rows.getArray();
            Object[] t = (Object[]) seconds.getArray();
            Object[] n = (Object[]) copied.getArray();
            for (int i = 0; i < r.length; i++) {
                running.add(new RunningChunk(r[i] == null ? null : ((Number) r[i]).longValue(),
                        t[i] == null ? 0 : Math.max(0, ((Number) t[i]).doubleValue()),
                        n[i] == null ? 0 : ((Number) n[i]).longValue()));
            }
        }
        return running;
    }

    /** One statement whatever the plan size, over two parallel arrays; the caller proves the lease in the same transaction. */
    public int recordEstimates(String runKey, List<Long> rowsPerChunk) throws SQLException {
        int n = rowsPerChunk.size();
        Integer[] ids = new Integer[n];
        Long[] rows = new Long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = i;
            rows[i] = rowsPerChunk.get(i);
        }
        Connection connection = sql.connection();
        Array idArray = connection.createArrayOf("int4", ids);
        Array rowArray = connection.createArrayOf("int8", rows);
        try {
            int updated = sql.update("UPDATE " + chunk + " c SET rows_estimated = u.rows FROM unnest(?::int4[], ?::int8[])"
                    + " AS u (chunk_id, rows) WHERE c.run_key = ? AND c.chunk_id = u.chunk_id", idArray, rowArray, runKey);
            // The plan's totals, read once from the chunks: the chunks not committed yet as estimated now, and the
            // committed ones as their lanes counted them, so that the two always add up (a replayed preparation).
            sql.update("UPDATE " + runProgress + " SET (estimated_chunks, estimated_rows) = (SELECT o.chunks + c.chunks,"
                    + " o.estimated + c.estimated FROM (SELECT count(rows_estimated) AS chunks,"
                    + " coalesce(sum(rows_estimated), 0) AS estimated FROM " + chunk + " WHERE run_key = ? AND state <> 'committed') o,"
                    + " (SELECT coalesce(sum(estimated_chunks), 0) AS chunks, coalesce(sum(estimated_rows), 0) AS estimated"
                    + " FROM " + runProgress + " WHERE run_key = ? AND owner <> '') c) WHERE run_key = ? AND owner = ''",
                    runKey, runKey, runKey);
            return updated;
        } finally {
            idArray.free();
            rowArray.free();
        }
    }

    /**
     * The first {@code limit} chunks that {@link #CLAIMABLE} admits, by chunk id. One branch per state, each an ordered
     * read of the {@code (run_key, state, chunk_id)} index with its own limit: a read never walks the committed
     * chunks, so it costs the same at the first claim of a 16,384-chunk plan as at its last (one ordered scan
     * filtered by the OR read every committed chunk below the first claimable one).
     */
    public List<ChunkRecord> claimable(String runKey, int maxAttempts, boolean retryFailed, int limit) throws SQLException {
        return sql.list(claimableSql(), PostgresLedgerRows.ROWS::chunk, claimableParameters(runKey, maxAttempts, retryFailed, limit));
    }

    String claimableSql() {
        String branch = "(SELECT " + CHUNK_COLUMNS + " FROM " + chunk + " WHERE run_key = ? AND state = '%s'%s"
                + " ORDER BY chunk_id LIMIT ?)";
        return branch.formatted("pending", "")
                + " UNION ALL " + branch.formatted("running", " AND (lease_expires < now() OR " + OWNER_SESSION_GONE + ")")
                + " UNION ALL " + branch.formatted("failed", " AND ? AND attempts < ?")
                + " ORDER BY chunk_id LIMIT ?";
    }

    Object[] claimableParameters(String runKey, int maxAttempts, boolean retryFailed, int limit) {
        return new Object[]{runKey, limit, runKey, laneLockPrefix(runKey), limit, runKey, retryFailed, maxAttempts, limit, limit};
    }

    /**
     * A failed chunk whose state, epoch and attempts still match the read was claimable under the caller's retry
     * policy when read, so the policy is passed as "allow failed" here.
     */
    public Optional<ChunkClaim> claim(String runKey, ChunkRecord seen, String owner, long ttlMillis) throws SQLException {
        return sql.one("UPDATE " + chunk + " SET state = 'running', owner = ?, epoch = epoch + 1,"
                        + " attempts = attempts + 1, lease_expires = " + TTL + ", owner_locked = " + HOLDS_LOCK + ","
                        + " started_at = coalesce(started_at, now()), finished_at = NULL, last_error = NULL,"
                        + " rows_copied = 0"
                        + " WHERE run_key = ? AND chunk_id = ? AND epoch = ? AND state = ? AND attempts = ? AND "
                        + CLAIMABLE
                        // Re-checked in the claim itself: a lane that read the stop flag just before it was set
                        // must not start another chunk.
                        + " AND NOT EXISTS (SELECT 1 FROM " + campaign + " c WHERE c.run_key = ? AND c.stop_requested)"
                        + " RETURNING epoch, attempts",
                rs -> new ChunkClaim(runKey, seen.chunkId(), owner, rs.getLong("epoch"), rs.getInt("attempts")),
                owner, ttlMillis, laneLockName(runKey, owner), runKey, seen.chunkId(), seen.epoch(), seen.state().dbValue(),
                seen.attempts(), laneLockPrefix(runKey), true, Integer.MAX_VALUE, runKey);
    }

    public boolean renew(ChunkClaim claim, long ttlMillis, long rowsCopied) throws SQLException {
        return sql.update("UPDATE " + chunk + " SET lease_expires = " + TTL + ", rows_copied = ?"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = 'running'"
                + " AND lease_expires >= now()", ttlMillis, Math.max(0, rowsCopied), claim.runKey(), claim.chunkId(), claim.owner(),
                claim.epoch()) == 1;
    }

    public boolean fail(ChunkClaim claim, String error) throws SQLException {
        return sql.update("UPDATE " + chunk + " SET state = 'failed', owner = NULL, lease_expires = NULL,"
                + " last_error = ?, finished_at = now()"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = 'running'",
                ChunkErrorText.bounded(error), claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) == 1;
    }

    public boolean abandon(ChunkClaim claim, String reason) throws SQLException {
        return sql.update("UPDATE " + chunk + " SET state = 'pending', owner = NULL, lease_expires = NULL,"
                + " attempts = greatest(attempts - 1, 0), rows_copied = 0, last_error = ?"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = 'running'",
                ChunkErrorText.bounded(reason), claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) == 1;
    }

    public java.util.Map<Integer, String> chunkDigests(String runKey) throws SQLException {
        java.util.Map<Integer, String> digests = new java.util.HashMap<>();
        sql.list("SELECT chunk_id, content_digest FROM " + chunkReceipt + " WHERE run_key = ?", rs -> {
            digests.put(rs.getInt("chunk_id"), rs.getString("content_digest"));
            return null;
        }, runKey);
        return digests;
    }

    public void recordVerification(String runKey, String summaryJson) throws SQLException {
        sql.update("UPDATE " + campaign + " SET verification = ? WHERE run_key = ?", summaryJson, runKey);
    }

    public Optional<String> verification(String runKey) throws SQLException {
        return sql.one("SELECT verification FROM " + campaign + " WHERE run_key = ?", rs -> Optional.ofNullable(rs.getString("verification")),
                runKey).flatMap(v -> v);
    }

    public boolean hasReceipt(String runKey, int chunkId) throws SQLException {
        return sql.one("SELECT EXISTS (SELECT 1 FROM " + chunkReceipt + " WHERE run_key = ? AND chunk_id = ?)"
                + " AS present", rs -> rs.getBoolean("present"), runKey, chunkId).orElse(false);
    }

    public boolean commitFromReceipt(ChunkClaim claim) throws SQLException {
        return sql.update(countedCommit("UPDATE " + chunk + " c SET state = 'committed', rows_loaded = r.rows_loaded,"
                + " rows_extracted = r.rows_loaded, finished_at = now(), lease_expires = NULL"
                + " FROM " + chunkReceipt + " r"
                // Running only: a chunk is counted once, by the statement that moves it to committed.
                + " WHERE c.run_key = ? AND c.chunk_id = ? AND c.owner = ? AND c.epoch = ? AND c.state = 'running'"
                + " AND r.run_key = c.run_key AND r.chunk_id = c.chunk_id"
                + " RETURNING c.run_key, c.owner, c.rows_extracted, c.rows_loaded, c.rows_estimated"),
                claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) == 1;
    }

    /**
     * A chunk's move to committed ({@code committing}: an UPDATE of at most one chunk, RETURNING its run key, owner,
     * rows and estimate) and its lane's progress counters in one statement (ADR 0027): the counters can never
     * disagree with the chunks, whichever transaction the statement runs in. Its count is the chunks committed.
     */
    private String countedCommit(String committing) {
        return "WITH done AS (" + committing + ")"
                + " INSERT INTO " + runProgress + " AS p (run_key, owner, chunks, rows_extracted, rows_loaded,"
                + " estimated_chunks, estimated_rows)"
                + " SELECT run_key, owner, 1, rows_extracted, rows_loaded, (rows_estimated IS NOT NULL)::int,"
                + " coalesce(rows_estimated, 0) FROM done"
                + " ON CONFLICT (run_key, owner) DO UPDATE SET chunks = p.chunks + 1,"
                + " rows_extracted = p.rows_extracted + excluded.rows_extracted,"
                + " rows_loaded = p.rows_loaded + excluded.rows_loaded,"
                + " estimated_chunks = p.estimated_chunks + excluded.estimated_chunks,"
                + " estimated_rows = p.estimated_rows + excluded.estimated_rows";
    }

    /** The chunk half of a requeue; the caller proves the campaign lease in the same transaction. */
    public int requeueFailed(String runKey) throws SQLException {
        return sql.update("UPDATE " + chunk + " SET state = 'pending', attempts = 0, owner = NULL,"
                + " lease_expires = NULL WHERE run_key = ? AND state = 'failed'", runKey);
    }

    public List<ChunkRecord> page(String runKey, int offset, int limit) throws SQLException {
        return sql.list("SELECT " + CHUNK_COLUMNS + " FROM " + chunk + " WHERE run_key = ? ORDER BY chunk_id"
                + " OFFSET ? LIMIT ?", PostgresLedgerRows.ROWS::chunk, runKey, offset, limit);
    }

    // --- chunk receipts, written in a lane's chunk transaction ---

    public boolean insertChunkReceipt(ChunkClaim claim) throws SQLException {
        return sql.update("INSERT INTO " + chunkReceipt + " (run_key, chunk_id, epoch, owner) VALUES (?, ?, ?, ?)"
                + " ON CONFLICT (run_key, chunk_id) DO NOTHING", claim.runKey(), claim.chunkId(), claim.epoch(), claim.owner()) == 1;
    }

    /** {@code contentDigest}: the rows' content digest (ADR 0018), or null when the lane computed none. */
    public void recordReceiptRows(ChunkClaim claim, long rows, String contentDigest) throws SQLException {
        if (sql.update("UPDATE " + chunkReceipt + " SET rows_loaded = ?, content_digest = ?::text"
                        + " WHERE run_key = ? AND chunk_id = ? AND epoch = ?",
                rows, contentDigest, claim.runKey(), claim.chunkId(), claim.epoch()) != 1) {
            throw new SQLException("chunk receipt vanished inside its own transaction");
        }
    }

    /** clock_timestamp(), not now(): now() is the transaction's start, before the copy, and would hide its duration. */
    public boolean markChunkCommitted(ChunkClaim claim, long rowsExtracted, long rowsLoaded) throws SQLException {
        return sql.update(countedCommit("UPDATE " + chunk + " SET state = 'committed', rows_extracted = ?, rows_loaded = ?,"
                + " finished_at = clock_timestamp(), lease_expires = NULL, last_error = NULL"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = 'running'"
                + " RETURNING run_key, owner, rows_extracted, rows_loaded, rows_estimated"),
                rowsExtracted, rowsLoaded, claim.runKey(), claim.chunkId(), claim.owner(), claim.epoch()) == 1;
    }

    // --- publication, handoff and rollback receipts ---

    @Override
    public Optional<PublicationReceipt> publicationReceipt(String runKey) throws SQLException {
        return sql.one("SELECT " + PostgresLedgerRows.PUBLICATION_COLUMNS + " FROM " + publicationReceipt + " WHERE run_key = ?",
                PostgresLedgerRows.ROWS::publication, runKey);
    }

    /** Inside the swap's transaction, as its last statement: fences the lease ({@link #fenceSwap}), then the receipt. */
    @Override
    public PublicationReceipt insertPublication(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                                                TableFingerprint published) throws SQLException {
        fenceSwap(lease);
        String receiptId = UUID.randomUUID().toString();
        return sql.one("INSERT INTO " + publicationReceipt + " (run_key, receipt_id, target_schema, live_table, backup_table,"
                        + " shadow_table, rows_published, lease_epoch, published_fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                        + " RETURNING " + PostgresLedgerRows.PUBLICATION_COLUMNS, PostgresLedgerRows.ROWS::publication,
                lease.runKey(), receiptId, names.schema(), liveTable, names.backupTable(), names.shadowTable(), rows,
                lease.epoch(), published.encoded()).orElseThrow();
    }

    /** The published table's content at publication, or null for a receipt written without one. */
    @Override
    public TableFingerprint publishedFingerprint(String runKey) throws SQLException {
        return sql.one("SELECT published_fingerprint FROM " + publicationReceipt + " WHERE run_key = ?",
                rs -> TableFingerprint.decode(rs.getString(1)), runKey).orElse(null);
    }

    public Optional<HandoffReceipt> handoffReceipt(String runKey) throws SQLException {
        return sql.one("SELECT " + PostgresLedgerRows.HANDOFF_COLUMNS + " FROM " + handoffReceipt + " WHERE run_key = ?",
                PostgresLedgerRows.ROWS::handoff, runKey);
    }

    /** Inserts the receipt unless one exists; returns the anchor the stored receipt holds. */
    public Optional<String> insertHandoff(CampaignLease lease, HandoffReceipt receipt) throws SQLException {
        sql.update("INSERT INTO " + handoffReceipt + " (run_key, receipt_id, anchor_xmin, lease_epoch, committed_at)"
                        + " VALUES (?, ?, ?, ?, coalesce(?, now())) ON CONFLICT (run_key) DO NOTHING",
                receipt.runKey(), receipt.receiptId(), receipt.anchorXmin(), lease.epoch(),
                PostgresJdbc.timestamp(receipt.committedAt()));
        return sql.one("SELECT anchor_xmin FROM " + handoffReceipt + " WHERE run_key = ?",
                rs -> rs.getString("anchor_xmin"), receipt.runKey());
    }

    @Override
    public Optional<RollbackReceipt> rollbackReceipt(String runKey) throws SQLException {
        return sql.one("SELECT " + PostgresLedgerRows.ROLLBACK_COLUMNS + " FROM " + rollbackReceipt + " WHERE run_key = ?",
                PostgresLedgerRows.ROWS::rollback, runKey);
    }

    /**
     * Inside the swap-back's transaction, as its last statement: fences the lease ({@link #fenceSwap}), then the
     * receipt. {@code acceptedWrites}: null, or the writes after publication that the operator accepted to move away.
     */
    @Override
    public RollbackReceipt insertRollback(CampaignLease lease, String reason, String acceptedWrites) throws SQLException {
        fenceSwap(lease);
        return sql.one("INSERT INTO " + rollbackReceipt + " (run_key, receipt_id, reason, lease_epoch, accepted_writes)"
                        + " VALUES (?, ?, ?, ?, ?) RETURNING " + PostgresLedgerRows.ROLLBACK_COLUMNS, PostgresLedgerRows.ROWS::rollback,
                lease.runKey(), UUID.randomUUID().toString(), reason, lease.epoch(), acceptedWrites).orElseThrow();
    }

}
