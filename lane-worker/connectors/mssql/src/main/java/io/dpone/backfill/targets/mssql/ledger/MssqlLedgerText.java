package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.mssql.MssqlAppLock;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

/**
 * Every T-SQL statement of the SQL Server ledger, for one state schema; the schema DDL is in
 * {@code ledger/v1/sqlserver.sql}. Times come from {@code SYSUTCDATETIME()}, the database clock; lease lengths are
 * milliseconds bound as int to {@code DATEADD}. Ownership writes are single conditional statements with no row-lock
 * hints: the WHERE clause carries the owner and epoch (or the epoch and state that were read), so of two writers
 * one updates a row and the other none. Parameters are listed, in order, beside each statement.
 */
final class MssqlLedgerText {
    static final String NOW = "SYSUTCDATETIME()";
    /** {@code ?} = lease length in milliseconds (int). */
    static final String TTL = "DATEADD(millisecond, ?, SYSUTCDATETIME())";
    /** Most rows per multi-row statement: well under SQL Server's 2100 parameters a statement. */
    static final int ROWS_PER_STATEMENT = 500;

    static final String CAMPAIGN_COLUMNS = "run_key, backfill_id, plan_digest, config_digest, spec_json, phase, detail,"
            + " anchor_xmin, source_shape_digest, target_shape_digest, live_baseline, row_encoding, lease_owner, lease_epoch, lease_expires,"
            + " stop_requested, created_at, updated_at";
    /** {@code lease_expired} is judged by the database so that expiry never depends on the JVM's clock. */
    static final String CHUNK_COLUMNS = "chunk_id, lower_bound, upper_bound, state, attempts, owner, epoch, lease_expires,"
            + " CAST(CASE WHEN lease_expires < SYSUTCDATETIME() THEN 1 ELSE 0 END AS bit) AS lease_expired,"
            + " rows_extracted, rows_loaded, last_error, rows_estimated";

    /** Campaign rows a lease holder may write: the lease must still be ours and still live by the database clock. */
    private static final String LEASE_FENCE =
            " run_key = ? AND lease_owner = ? AND lease_epoch = ? AND lease_expires >= SYSUTCDATETIME()";
    /**
     * Claimable by the lease, by the same rule in the read and in the claim; {@code ?, ?} = retry failed (bit), max
     * attempts. A lane lock that is free is asked apart ({@link #laneLockFree()}).
     */
    private static final String CLAIMABLE = "(state = N'pending' OR (state = N'running' AND lease_expires < SYSUTCDATETIME())"
            + " OR (? = 1 AND state = N'failed' AND refused = 0 AND attempts < ?))";
    /**
     * Chunks that will (again) need a lane: not started, failed, or abandoned by a lane whose lease expired. For the
     * ETA only: a chunk whose lane's session is gone before its lease expired counts as running until then.
     */
    private static final String WAITING = "state IN (N'pending', N'failed') OR (state = N'running' AND lease_expires < SYSUTCDATETIME())";
    private static final String LIVE_RUNNING = "state = N'running' AND lease_expires >= SYSUTCDATETIME()";

    private final String campaign;
    private final String chunk;
    private final String chunkReceipt;
    private final String publicationReceipt;
    private final String rollbackReceipt;
    private final String handoffReceipt;
    private final String ledgerVersion;
    private final String runProgress;
    private final String groupMember;
    private final String stateSchema;

    MssqlLedgerText(String stateSchema) {
        this.stateSchema = stateSchema;
        String schema = MssqlIdentifiers.quote(stateSchema);
        this.campaign = schema + ".campaign";
        this.chunk = schema + ".chunk";
        this.chunkReceipt = schema + ".chunk_receipt";
        this.runProgress = schema + ".run_progress";
        this.publicationReceipt = schema + ".publication_receipt";
        this.rollbackReceipt = schema + ".rollback_receipt";
        this.handoffReceipt = schema + ".handoff_receipt";
        this.ledgerVersion = schema + ".ledger_version";
        this.groupMember = schema + ".publication_group_member";

    }

    /** Per session: bound every lock wait, and let any error roll the whole transaction back, never half of it. */
    static String sessionSettings(long lockTimeoutMillis) {
        return "SET LOCK_TIMEOUT " + lockTimeoutMillis + "; SET XACT_ABORT ON;";
    }

    // --- schema ---

    /** No parameters. */
    String schemaVersion() {
        return "SELECT MAX(version) AS v FROM " + ledgerVersion;
    }

    /** {@code ?} = the campaign table's two-part name; 1 when it exists. Creates nothing. */
    static String tableExists() {
        return "SELECT CASE WHEN OBJECT_ID(?, N'U') IS NULL THEN 0 ELSE 1 END AS present";
    }

    String campaignObjectName() {
        return campaign;
    }

    // --- campaign ---

    /** {@code ?} = run key. */
    String campaignByRunKey() {
        return "SELECT " + CAMPAIGN_COLUMNS + " FROM " + campaign + " WHERE run_key = ?";
    }

    /** {@code ?} = approved by, run key: the first approval stands (issue 28); no lease. */
    String approve() {
        return "UPDATE " + campaign + " SET approved_by = ?, approved_at = SYSUTCDATETIME() WHERE run_key = ?"
                + " AND approved_by IS NULL";
    }

    /** {@code ?} = rows/s, bytes/s, lanes, run key: the run's rate ceiling (issue 28); no lease, the last write stands. */
    String recordThrottle() {
        return "UPDATE " + campaign + " SET throttle_rows_per_second = ?, throttle_bytes_per_second = ?,"
                + " throttle_lanes = ? WHERE run_key = ?";
    }

    /** {@code ?} = pause (null clears), run key: why the run's lanes claim nothing for now; no lease. */
    String recordClaimPause() {
        return "UPDATE " + campaign + " SET claim_pause = ? WHERE run_key = ?";
    }

    /** {@code ?} = run key: why the run's lanes claim nothing for now, one row while they do not. */
    String claimPause() {
        return "SELECT claim_pause FROM " + campaign + " WHERE run_key = ? AND claim_pause IS NOT NULL";
    }

    /** {@code ?} = run key: the run's rate ceiling, one row once one was recorded. */
    String throttle() {
        return "SELECT throttle_rows_per_second, throttle_bytes_per_second, throttle_lanes FROM " + campaign
                + " WHERE run_key = ? AND throttle_lanes IS NOT NULL";
    }

    /** {@code ?} = run key: the approval, one row when there is one. */
    String approval() {
        return "SELECT approved_by, approved_at FROM " + campaign + " WHERE run_key = ? AND approved_by IS NOT NULL";
    }

    /**
     * {@code ?} = run key: the campaign's approval copied into its publication receipt, in the swap's transaction
     * right after the receipt.
     */
    String copyApprovalIntoReceipt() {
        // UPDATE table_alias SET column_name = ... FROM <table_source> (sql-docs update-transact-sql): the SET
        // columns are the alias's own, unqualified.
        return "UPDATE r SET approved_by = c.approved_by, approved_at = c.approved_at FROM " + publicationReceipt
                + " AS r JOIN " + campaign + " AS c ON c.run_key = r.run_key WHERE r.run_key = ?";
    }

    /** {@code ?} = backfill id. */
    String campaignByBackfillId() {
        return "SELECT " + CAMPAIGN_COLUMNS + " FROM " + campaign + " WHERE backfill_id = ?";
    }

    /** run key, backfill id, plan digest, config digest, spec json, chunk total, phase. */
    String insertCampaign() {
        return "INSERT INTO " + campaign + " (run_key, backfill_id, plan_digest, config_digest, spec_json, chunk_total,"
                + " phase) VALUES (?, ?, ?, ?, ?, ?, ?)";
    }

    /**
     * owner, owner, ttl, run key, owner. A takeover (from another owner or from nobody) increments the epoch; the
     * same owner keeps it. Returns the epoch through OUTPUT; no row means another owner holds a live lease.
     */
    String acquireLease() {
        return "UPDATE " + campaign + " SET lease_epoch = CASE WHEN lease_owner = ? THEN lease_epoch ELSE lease_epoch + 1 END,"
                + " lease_since = CASE WHEN lease_owner = ? THEN COALESCE(lease_since, SYSUTCDATETIME()) ELSE SYSUTCDATETIME() END,"
                + " lease_owner = ?, lease_expires = " + TTL
                + " OUTPUT inserted.lease_epoch"
                + " WHERE run_key = ? AND (lease_owner IS NULL OR lease_expires < SYSUTCDATETIME() OR lease_owner = ?)";
    }

    /**
     * owner, ttl, run key. The takeover by a driver just granted the campaign's driver lock: the lease becomes this
     * owner's with epoch + 1 whatever the row says. OUTPUT returns the new epoch and the new lease's start (the
     * statement's clock). The caller read the previous holder ({@link #leaseHolder()}) just before, under the lock,
     * so no other driver can have changed the row in between.
     */
    String takeOverLease() {
        return "UPDATE " + campaign + " SET lease_epoch = lease_epoch + 1, lease_owner = ?, lease_expires = " + TTL + ","
                + " lease_since = SYSUTCDATETIME()"
                + " OUTPUT inserted.lease_epoch, inserted.lease_since"
                + " WHERE run_key = ?";
    }

    /** run key: who the lease row names, for a driver waiting on the driver lock. */
    String leaseHolder() {
        return "SELECT lease_owner, lease_since, lease_expires FROM " + campaign + " WHERE run_key = ?";
    }

    /** run key, owner, epoch: frees the lease and keeps the epoch, so the next holder's is higher. */
    String releaseLease() {
        return "UPDATE " + campaign + " SET lease_owner = NULL, lease_expires = NULL, lease_since = NULL"
                + " WHERE run_key = ? AND lease_owner = ? AND lease_epoch = ?";
    }

    /** ttl, then the lease (run key, owner, epoch). */
    String renewLease() {
        return fenced("lease_expires = " + TTL, "");
    }

    /**
     * ttl, the driver lock's resource name, then the lease: a renewal that also proves this session still holds the
     * driver lock. The driver's connection resiliency can reconnect a broken idle session silently, and the new
     * session holds no application lock.
     */
    String renewHoldingDriverLock() {
        return fenced("lease_expires = " + TTL, "APPLOCK_MODE(N'public', ?, N'Session') = N'Exclusive' AND");
    }

    /**
     * The campaign's driver lock (ADR 0016): an {@code sp_getapplock} resource per database, named for the state
     * schema and run key, hashed by {@link MssqlAppLock#resourceName} when longer than 255 characters.
     */
    String driverLockName(String runKey) {
        return MssqlAppLock.resourceName("dpone-backfill-driver:" + stateSchema.length() + ":" + stateSchema + ":" + runKey);
    }

    /**
     * A lane's lock (ADR 0021): namespaced and length-prefixed like the driver lock. A name longer than
     * {@link MssqlAppLock#MAX_NAME_LENGTH} is never taken: SQL Server would cut it silently, so two lanes could share
     * one lock; such a lane keeps lease-only recovery.
     */
    String laneLockName(String runKey, String owner) {
        return "dpone-backfill-lane:" + stateSchema.length() + ":" + stateSchema + ":" + runKey.length() + ":" + runKey
                + ":" + owner;
    }

    /** to phase, detail (null keeps it), from phase, then the lease. */
    String transition() {
        return fenced("phase = ?, detail = COALESCE(?, detail), updated_at = SYSUTCDATETIME()", "phase = ? AND");
    }

    /** anchor, anchor, then the lease: stores once; matches again only for the same value. */
    String recordAnchor() {
        return fenced("anchor_xmin = COALESCE(anchor_xmin, ?)", "(anchor_xmin IS NULL OR anchor_xmin = ?) AND");
    }

    /** source shape digest, target shape digest, live baseline json, then the lease. */
    String recordShapes() {
        return fenced("source_shape_digest = ?, target_shape_digest = ?, live_baseline = ?", "");
    }

    /** row encoding, then the lease. */
    String recordRowEncoding() {
        return fenced("row_encoding = ?", "");
    }

    /** stop (bit), then the lease. */
    String setStopRequested() {
        return fenced("stop_requested = ?", "");
    }

    /** One row while the lease is held: read, not updated, so it keeps no lock (the swap's early check). */
    String leaseHeld() {
        return "SELECT 1 AS held FROM " + campaign + " WHERE" + LEASE_FENCE;
    }

    /** The lease only: a no-op write that proves the lease and holds the campaign row for the transaction. */
    String proveLease() {
        return fenced("lease_epoch = lease_epoch", "");
    }

    /** The lease only: proves it and marks the campaign touched, for the handoff. */
    String touchUnderLease() {
        return fenced("updated_at = SYSUTCDATETIME()", "");
    }

    private String fenced(String set, String condition) {
        return "UPDATE " + campaign + " SET " + set + " WHERE " + condition + LEASE_FENCE;
    }

    // --- chunks ---

    /** The chunk table's name, the destination of the plan's bulk load (no statement: the driver streams rows). */
    String chunkTable() {
        return chunk;
    }

    /** Per row: chunk id, rows estimated ({@code rows} rows), then the run key. */
    String recordEstimates(int rows) {
        return "UPDATE c SET rows_estimated = v.rows_estimated FROM " + chunk + " AS c"
                + " INNER JOIN (VALUES " + valueRows(rows, 2) + ") AS v (chunk_id, rows_estimated)"
                + " ON c.chunk_id = v.chunk_id WHERE c.run_key = ?";
    }

    /** run key, chunks planned: the plan row; from here on the run's progress is read from its counters (ADR 0027). */
    String insertPlanProgress() {
        return "INSERT INTO " + runProgress + " (run_key, owner, chunks) VALUES (?, N'', ?)";
    }

    /**
     * run key, run key, run key: the plan's estimate totals, read once from the chunks at preparation: the chunks not
     * committed yet as estimated now, and the committed ones as their lanes counted them, so that the two always add
     * up (a replayed preparation).
     */
    String recordPlannedEstimates() {
        return "UPDATE p SET estimated_chunks = o.chunks + c.chunks, estimated_rows = o.estimated + c.estimated"
                + " FROM " + runProgress + " AS p"
                + " CROSS JOIN (SELECT COUNT(rows_estimated) AS chunks, COALESCE(SUM(rows_estimated), 0) AS estimated"
                + " FROM " + chunk + " WHERE run_key = ? AND state <> N'committed') AS o"
                + " CROSS JOIN (SELECT COALESCE(SUM(estimated_chunks), 0) AS chunks, COALESCE(SUM(estimated_rows), 0) AS estimated"
                + " FROM " + runProgress + " WHERE run_key = ? AND owner <> N'') AS c"
                + " WHERE p.run_key = ? AND p.owner = N''";
    }

    /**
     * run key, chunk id: adds the chunk just committed (its rows, its estimate) to its lane's counters, in the
     * commit's transaction. Zero rows: the lane's first commit, {@link #insertCommittedCount}.
     */
    String addCommittedCount() {
        return "UPDATE p SET chunks = p.chunks + 1, rows_extracted = p.rows_extracted + c.rows_extracted,"
                + " rows_loaded = p.rows_loaded + c.rows_loaded,"
                + " estimated_chunks = p.estimated_chunks + CASE WHEN c.rows_estimated IS NULL THEN 0 ELSE 1 END,"
                + " estimated_rows = p.estimated_rows + COALESCE(c.rows_estimated, 0)"
                + " FROM " + runProgress + " AS p INNER JOIN " + chunk + " AS c ON c.run_key = p.run_key AND c.owner = p.owner"
                + " WHERE c.run_key = ? AND c.chunk_id = ? AND c.state = N'committed'";
    }

    /** run key, chunk id: a lane's counters, from its first committed chunk. */
    String insertCommittedCount() {
        return "INSERT INTO " + runProgress + " (run_key, owner, chunks, rows_extracted, rows_loaded, estimated_chunks,"
                + " estimated_rows) SELECT run_key, owner, 1, rows_extracted, rows_loaded,"
                + " CASE WHEN rows_estimated IS NULL THEN 0 ELSE 1 END, COALESCE(rows_estimated, 0)"
                + " FROM " + chunk + " WHERE run_key = ? AND chunk_id = ? AND state = N'committed'";
    }

    /**
     * run key, max attempts, run key, run key, run key, run key. Progress without walking the chunks (ADR 0027), in
     * one statement: the counters (one row per lane that committed, and the plan row), the running and failed
     * chunks (a range of the claim index), the chunks finished in the last minute (a range of {@code chunk_finished}),
     * the first start (the head of {@code chunk_started}), joined to the live running chunks (at most one row per
     * lane). Total is null for a run without a plan row.
     */
    String countedCounts() {
        return "SELECT p.*, o.running, o.failed, o.failed_exhausted, o.live_estimated_rows, rc.recent_rows, st.seconds,"
                + " r.chunk_id AS running_chunk, r.rows_estimated AS running_rows, r.seconds AS running_seconds,"
                + " r.rows_copied AS running_copied"
                + " FROM (SELECT SUM(CASE WHEN owner = N'' THEN chunks END) AS total,"
                + " COALESCE(SUM(CASE WHEN owner <> N'' THEN chunks END), 0) AS committed,"
                + " COALESCE(SUM(rows_extracted), 0) AS rows_extracted, COALESCE(SUM(rows_loaded), 0) AS rows_loaded,"
                + " COALESCE(SUM(CASE WHEN owner = N'' THEN estimated_chunks END), 0) AS planned_estimated,"
                + " COALESCE(SUM(CASE WHEN owner = N'' THEN estimated_rows END), 0) AS planned_estimated_rows,"
                + " COALESCE(SUM(CASE WHEN owner <> N'' THEN estimated_chunks END), 0) AS committed_estimated,"
                + " COALESCE(SUM(CASE WHEN owner <> N'' THEN estimated_rows END), 0) AS committed_estimated_rows"
                + " FROM " + runProgress + " WHERE run_key = ?) AS p"
                + " CROSS JOIN (SELECT COALESCE(SUM(CASE WHEN state = N'running' THEN 1 ELSE 0 END), 0) AS running,"
                + " COALESCE(SUM(CASE WHEN state = N'failed' THEN 1 ELSE 0 END), 0) AS failed,"
                + " COALESCE(SUM(CASE WHEN state = N'failed' AND (attempts >= ? OR refused = 1) THEN 1 ELSE 0 END), 0) AS failed_exhausted,"
                + " COALESCE(SUM(CASE WHEN " + LIVE_RUNNING + " THEN rows_estimated END), 0) AS live_estimated_rows"
                + " FROM " + chunk + " WHERE run_key = ? AND state IN (N'running', N'failed')) AS o"
                + " CROSS JOIN (SELECT COALESCE(SUM(rows_loaded), 0) AS recent_rows FROM " + chunk + " WHERE run_key = ?"
                + " AND finished_at >= DATEADD(second, -60, SYSUTCDATETIME()) AND state = N'committed') AS rc"
                + " CROSS JOIN (SELECT COALESCE(DATEDIFF_BIG(millisecond, MIN(started_at), SYSUTCDATETIME()) / 1000.0, 0)"
                + " AS seconds FROM " + chunk + " WHERE run_key = ?) AS st"
                + " LEFT JOIN (SELECT chunk_id, rows_estimated, rows_copied,"
                + " DATEDIFF_BIG(millisecond, started_at, SYSUTCDATETIME()) / 1000.0 AS seconds"
                + " FROM " + chunk + " WHERE run_key = ? AND " + LIVE_RUNNING + ") AS r ON 1 = 1"
                + " ORDER BY r.chunk_id";
    }

    /**
     * For a run planned before the progress counters (no plan row).
     * max attempts, run key, run key. One statement: the counters and estimate aggregates on every row, joined to
     * the live running chunks (at most one row per lane) so both come from the same statement; a chunk running with
     * an expired lease is waiting again (its lane is gone), so only live ones are listed. No running chunk: one row
     * with null running columns.
     */
    String aggregatedCounts() {
        return "SELECT a.*, r.chunk_id AS running_chunk, r.rows_estimated AS running_rows, r.seconds AS running_seconds,"
                + " r.rows_copied AS running_copied FROM (SELECT COUNT(*) AS total,"
                + " COALESCE(SUM(CASE WHEN state = N'pending' THEN 1 ELSE 0 END), 0) AS pending,"
                + " COALESCE(SUM(CASE WHEN state = N'running' THEN 1 ELSE 0 END), 0) AS running,"
                + " COALESCE(SUM(CASE WHEN state = N'committed' THEN 1 ELSE 0 END), 0) AS committed,"
                + " COALESCE(SUM(CASE WHEN state = N'failed' THEN 1 ELSE 0 END), 0) AS failed,"
                + " COALESCE(SUM(CASE WHEN state = N'failed' AND (attempts >= ? OR refused = 1) THEN 1 ELSE 0 END), 0) AS failed_exhausted,"
                + " COALESCE(SUM(CASE WHEN state = N'committed' THEN rows_extracted END), 0) AS rows_extracted,"
                + " COALESCE(SUM(CASE WHEN state = N'committed' THEN rows_loaded END), 0) AS rows_loaded,"
                + " COALESCE(SUM(CASE WHEN state = N'committed' AND finished_at >= DATEADD(second, -60, SYSUTCDATETIME())"
                + " THEN rows_loaded END), 0) AS recent_rows,"
                + " COALESCE(DATEDIFF_BIG(millisecond, MIN(started_at), SYSUTCDATETIME()) / 1000.0, 0) AS seconds,"
                + " COUNT(rows_estimated) AS estimated,"
                + " COALESCE(SUM(CASE WHEN state <> N'committed' AND rows_estimated IS NULL THEN 1 ELSE 0 END), 0) AS unestimated,"
                + " COALESCE(SUM(CASE WHEN " + WAITING + " THEN rows_estimated END), 0) AS waiting_rows"
                + " FROM " + chunk + " WHERE run_key = ?) AS a"
                + " LEFT JOIN (SELECT chunk_id, rows_estimated, rows_copied,"
                + " DATEDIFF_BIG(millisecond, started_at, SYSUTCDATETIME()) / 1000.0 AS seconds"
                + " FROM " + chunk + " WHERE run_key = ? AND " + LIVE_RUNNING + ") AS r ON 1 = 1"
                + " ORDER BY r.chunk_id";
    }

    /**
     * limit, then limit and run key per branch, then retry failed (bit) and max attempts: the first chunks that
     * {@link #CLAIMABLE} admits, by chunk id. One branch per state, each an ordered read of the {@code (run_key,
     * state, chunk_id)} index with its own TOP: a read never walks the committed chunks, so it costs the same at the
     * first claim of a 16,384-chunk plan as at its last. Chunks whose lane's session is gone: {@link #lockedRunning()}.
     */
    String claimable() {
        return "SELECT TOP (?) * FROM (" + claimableBranch("N'pending'", "p")
                + " UNION ALL " + claimableBranch("N'running' AND lease_expires < SYSUTCDATETIME()", "r")
                + " UNION ALL " + claimableBranch("N'failed' AND ? = 1 AND refused = 0 AND attempts < ?", "f")
                + ") AS claimable ORDER BY chunk_id";
    }

    /** Concatenated, never formatted: the table's name holds the state schema, whose {@code %} is text (issue 39). */
    private String claimableBranch(String stateCondition, String alias) {
        return "SELECT * FROM (SELECT TOP (?) " + CHUNK_COLUMNS + " FROM " + chunk + " WHERE run_key = ? AND state = "
                + stateCondition + " ORDER BY chunk_id) AS " + alias;
    }

    /**
     * limit, run key. Running chunks with a live lease claimed under their lane's lock (ADR 0021): claimable once
     * {@link #laneLockFree()} says that lock is free.
     */
    String lockedRunning() {
        return "SELECT TOP (?) " + CHUNK_COLUMNS + " FROM " + chunk + " WHERE run_key = ? AND state = N'running'"
                + " AND owner_locked = 1 AND lease_expires >= SYSUTCDATETIME() ORDER BY chunk_id";
    }

    /**
     * lock name. 1 when the calling session could take the lane lock: free, or held by the caller. Asked once per
     * owner in its own statement rather than per row inside the read: a read lists many chunks of few lanes.
     */
    String laneLockFree() {
        return "SELECT APPLOCK_TEST(N'public', ?, N'Exclusive', N'Session') AS free";
    }

    /**
     * owner, ttl, this lane's lock name, run key, chunk id, epoch read, state read, attempts read, retry failed
     * (bit), max attempts, run key. {@code owner_locked} records whether this session holds the lane's lock
     * (ADR 0021).
     * The optimistic claim of src-docs/architecture.md section 5: it matches only while the chunk still has the
     * epoch, state and attempts that were read and is still claimable, and no stop is requested; OUTPUT returns the
     * new epoch and attempt. No row-lock hints: the conditional update alone decides.
     */
    String claim() {
        return claimWhere(CLAIMABLE);
    }

    /**
     * owner, ttl, this lane's lock name, run key, chunk id, epoch read, state read (running), attempts read, the
     * dead lane's owner, run key: a chunk whose lane's session is gone, its lease still live, once
     * {@link #laneLockFree()} said so. Safe without the lock test in the statement: a gone session never comes
     * back, and a new session of that lane gives the chunk back (state pending) before it claims again.
     */
    String claimOrphan() {
        return claimWhere("owner_locked = 1 AND owner = ?");
    }

    private String claimWhere(String claimable) {
        return "UPDATE " + chunk + " SET state = N'running', owner = ?, epoch = epoch + 1, attempts = attempts + 1,"
                + " lease_expires = " + TTL + ","
                + " owner_locked = CASE WHEN APPLOCK_MODE(N'public', ?, N'Session') = N'Exclusive' THEN 1 ELSE 0 END,"
                + " started_at = COALESCE(started_at, SYSUTCDATETIME()),"
                + " finished_at = NULL, last_error = NULL, rows_copied = 0"
                + " OUTPUT inserted.epoch, inserted.attempts"
                + " WHERE run_key = ? AND chunk_id = ? AND epoch = ? AND state = ? AND attempts = ? AND " + claimable
                // Re-checked in the claim itself: a lane that read the stop flag just before it was set must not
                // start another chunk.
                + " AND NOT EXISTS (SELECT 1 FROM " + campaign + " AS c WHERE c.run_key = ? AND c.stop_requested = 1)";
    }

    /** ttl, rows copied, run key, chunk id, owner, epoch. Only a live claim renews. */
    String renewChunk() {
        return "UPDATE " + chunk + " SET lease_expires = " + TTL + ", rows_copied = ?"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = N'running'"
                + " AND lease_expires >= SYSUTCDATETIME()";
    }

    /** error, refused (bit), run key, chunk id, owner, epoch. */
    String failChunk() {
        return "UPDATE " + chunk + " SET state = N'failed', owner = NULL, lease_expires = NULL, last_error = ?,"
                + " finished_at = SYSUTCDATETIME(), refused = ?"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = N'running'";
    }

    /** run key: the first chunk the target refused, if any. */
    String firstRefused() {
        return "SELECT TOP (1) " + CHUNK_COLUMNS + " FROM " + chunk + " WHERE run_key = ? AND state = N'failed'"
                + " AND refused = 1 ORDER BY chunk_id";
    }

    /** reason, run key, chunk id, owner, epoch. */
    String abandonChunk() {
        return "UPDATE " + chunk + " SET state = N'pending', owner = NULL, lease_expires = NULL,"
                + " attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END, rows_copied = 0, last_error = ?"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = N'running'";
    }

    /** run key, chunk id. */
    /** run key: every receipt's chunk id and content digest. */
    String chunkDigests() {
        return "SELECT chunk_id, content_digest FROM " + chunkReceipt + " WHERE run_key = ?";
    }

    /** verification JSON, run key. */
    String recordVerification() {
        return "UPDATE " + campaign + " SET verification = ? WHERE run_key = ?";
    }

    /** run key. */
    String verification() {
        return "SELECT verification FROM " + campaign + " WHERE run_key = ?";
    }

    /**
     * run key, chunk id: is a committed receipt there? A zombie lane's uncommitted receipt for the chunk holds an
     * exclusive key lock until its transaction ends; a locking READ COMMITTED read would wait on it and end the lane
     * with 1222. READPAST skips the locked row (it is not committed, so "absent" is the right answer: the chunk's own
     * receipt insert then waits on it, bounded by the receipt wait). READPAST is refused under READ_COMMITTED_SNAPSHOT
     * unless READCOMMITTEDLOCK is given too (sql-docs docs/t-sql/queries/hints-transact-sql-table.md, READPAST), hence
     * both. An engine that ignores the hints blocks to LOCK_TIMEOUT instead, which the store also reads as absent.
     */
    String hasChunkReceipt() {
        return "SELECT CASE WHEN EXISTS (SELECT 1 FROM " + chunkReceipt + " WITH (READCOMMITTEDLOCK, READPAST)"
                + " WHERE run_key = ? AND chunk_id = ?) THEN 1 ELSE 0 END AS present";
    }

    /** run key, chunk id, owner, epoch: the receipt's row count becomes rows loaded and rows extracted. */
    String commitFromReceipt() {
        return "UPDATE c SET state = N'committed', rows_loaded = r.rows_loaded, rows_extracted = r.rows_loaded,"
                + " finished_at = SYSUTCDATETIME(), lease_expires = NULL"
                + " FROM " + chunk + " AS c INNER JOIN " + chunkReceipt + " AS r"
                + " ON r.run_key = c.run_key AND r.chunk_id = c.chunk_id"
                // Running only: a chunk is counted once, by the statement that moves it to committed.
                + " WHERE c.run_key = ? AND c.chunk_id = ? AND c.owner = ? AND c.epoch = ? AND c.state = N'running'";
    }

    /** run key: the chunk half of a requeue; the caller proves the lease in the same transaction. */
    String requeueFailed() {
        return "UPDATE " + chunk + " SET state = N'pending', attempts = 0, owner = NULL, lease_expires = NULL,"
                + " refused = 0 WHERE run_key = ? AND state = N'failed'";
    }

    /** run key, offset, limit. */
    String chunkPage() {
        return "SELECT " + CHUNK_COLUMNS + " FROM " + chunk + " WHERE run_key = ? ORDER BY chunk_id"
                + " OFFSET ? ROWS FETCH NEXT ? ROWS ONLY";
    }

    // --- chunk receipts, written in a lane's chunk transaction on its sink connection ---

    /** run key, chunk id, epoch, owner. Blocks behind another transaction's receipt for the chunk (LOCK_TIMEOUT). */
    String insertChunkReceipt() {
        return "INSERT INTO " + chunkReceipt + " (run_key, chunk_id, epoch, owner) VALUES (?, ?, ?, ?)";
    }

    /** rows loaded, run key, chunk id, epoch. */
    String recordReceiptRows() {
        return "UPDATE " + chunkReceipt + " SET rows_loaded = ?, content_digest = ? WHERE run_key = ? AND chunk_id = ? AND epoch = ?";
    }

    /**
     * rows extracted, rows loaded, run key, chunk id, owner, epoch: the fenced mark; SYSUTCDATETIME() is taken per
     * statement, so finished_at is the end of the copy, not the transaction's start.
     */
    String markChunkCommitted() {
        return "UPDATE " + chunk + " SET state = N'committed', rows_extracted = ?, rows_loaded = ?,"
                + " finished_at = SYSUTCDATETIME(), lease_expires = NULL, last_error = NULL"
                + " WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = N'running'";
    }

    // --- receipts ---

    /** {@code ?} = run key. */
    String publicationReceipt() {
        return "SELECT run_key, receipt_id, target_schema, live_table, backup_table, shadow_table, rows_published,"
                + " published_at FROM " + publicationReceipt + " WHERE run_key = ?";
    }

    /**
     * run key, receipt id, schema, live table, backup table, shadow table, rows, lease epoch, published fingerprint:
     * the publication receipt, written inside the swap's transaction after the lease fence; OUTPUT returns the row.
     */
    String insertPublicationReceipt() {
        return insertPublicationHead() + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    }

    /** The publication receipt's INSERT up to its values, with the OUTPUT that returns the row. */
    private String insertPublicationHead() {
        return "INSERT INTO " + publicationReceipt + " (run_key, receipt_id, target_schema, live_table, backup_table,"
                + " shadow_table, rows_published, lease_epoch, published_fingerprint)"
                + " OUTPUT inserted.run_key, inserted.receipt_id, inserted.target_schema, inserted.live_table,"
                + " inserted.backup_table, inserted.shadow_table, inserted.rows_published, inserted.published_at";
    }

    /** {@code ?} = run key: the published table's fingerprint at publication (null in older receipts). */
    String publishedFingerprint() {
        return "SELECT published_fingerprint FROM " + publicationReceipt + " WHERE run_key = ?";
    }

    /** run key, receipt id, reason, lease epoch, accepted writes (null: none): OUTPUT returns the row. */
    String insertRollbackReceipt() {
        return insertRollbackHead() + " VALUES (?, ?, ?, ?, ?)";
    }

    /** The rollback receipt's INSERT up to its values, with the OUTPUT that returns the row. */
    private String insertRollbackHead() {
        return "INSERT INTO " + rollbackReceipt + " (run_key, receipt_id, reason, lease_epoch, accepted_writes)"
                + " OUTPUT inserted.run_key, inserted.receipt_id, inserted.reason, inserted.rolled_back_at,"
                + " inserted.accepted_writes";
    }

    /** {@code ?} = run key. */
    String handoffReceipt() {
        return "SELECT run_key, receipt_id, anchor_xmin, committed_at FROM " + handoffReceipt + " WHERE run_key = ?";
    }

    /** {@code ?} = run key. */
    String rollbackReceipt() {
        return "SELECT run_key, receipt_id, reason, rolled_back_at, accepted_writes FROM " + rollbackReceipt
                + " WHERE run_key = ?";
    }

    /** run key, receipt id, anchor, lease epoch, committed at (null = now), run key: inserts unless one exists. */
    String insertHandoffReceipt() {
        return "INSERT INTO " + handoffReceipt + " (run_key, receipt_id, anchor_xmin, lease_epoch, committed_at)"
                + " SELECT ?, ?, ?, ?, COALESCE(?, SYSUTCDATETIME())"
                + " WHERE NOT EXISTS (SELECT 1 FROM " + handoffReceipt + " WHERE run_key = ?)";
    }

    /** {@code ?} = run key. */
    String handoffAnchor() {
        return "SELECT anchor_xmin FROM " + handoffReceipt + " WHERE run_key = ?";
    }

    private static String valueRows(int rows, int columns) {
        String row = "(" + "?, ".repeat(columns - 1) + "?)";
        StringBuilder sql = new StringBuilder(rows * (row.length() + 2));
        for (int i = 0; i < rows; i++) {
            if (i > 0) {
                sql.append(", ");
            }
            sql.append(row);
        }
        return sql.toString();
    }

    // Publication groups (issue 27, ADR 0041).

    /** run key, group, terms digest, target schema, live table, run key: inserted unless the campaign has a row. */
    String joinGroup() {
        return "INSERT INTO " + groupMember + " (run_key, group_name, terms_digest, target_schema, live_table)"
                + " SELECT ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM " + groupMember + " WITH (UPDLOCK, HOLDLOCK)"
                + " WHERE run_key = ?)";
    }

    /**
     * shadow, backup, rows, baseline, fingerprint, run key, then the lease fence (run key, owner, epoch): the first
     * readiness stands; one row updated when the lease holds.
     */
    String markGroupReady() {
        return "UPDATE " + groupMember + " SET shadow_table = COALESCE(shadow_table, ?), backup_table = COALESCE(backup_table, ?),"
                + " rows_published = COALESCE(rows_published, ?), live_baseline = COALESCE(live_baseline, ?),"
                + " published_fingerprint = COALESCE(published_fingerprint, ?), ready_at = COALESCE(ready_at, SYSUTCDATETIME())"
                + " WHERE run_key = ? AND EXISTS (SELECT 1 FROM " + campaign + " WHERE" + LEASE_FENCE + ")";
    }

    /** {@code ?} = group: every member with its campaign's phase. */
    String groupMembers() {
        return "SELECT g.group_name, g.run_key, g.terms_digest, g.target_schema, g.live_table, c.phase, g.shadow_table,"
                + " g.backup_table, g.rows_published, g.live_baseline, g.published_fingerprint, g.ready_at FROM "
                + groupMember + " AS g JOIN " + campaign + " AS c ON c.run_key = g.run_key WHERE g.group_name = ?"
                + " ORDER BY g.live_table, g.run_key";
    }

    /** {@code ?} = run key. */
    String groupOf() {
        return "SELECT group_name FROM " + groupMember + " WHERE run_key = ?";
    }

    /** {@code ?} = run key: locks another member's campaign row while it is still Publishing (group swap). */
    String lockPublishingMember() {
        return "SELECT 1 AS held FROM " + campaign + " WITH (UPDLOCK, ROWLOCK) WHERE run_key = ? AND phase = N'Publishing'";
    }

    /** {@code ?} = run key: locks another member's campaign row (group rollback). */
    String lockMember() {
        return "SELECT 1 AS held FROM " + campaign + " WITH (UPDLOCK, ROWLOCK) WHERE run_key = ?";
    }

    /**
     * run key, receipt id, schema, live, backup, shadow, rows, fingerprint, run key: another member's receipt with
     * its campaign row's lease epoch; OUTPUT returns the row.
     */
    String insertMemberPublicationReceipt() {
        return insertPublicationHead() + " SELECT ?, ?, ?, ?, ?, ?, ?, c.lease_epoch, ? FROM " + campaign
                + " AS c WHERE c.run_key = ?";
    }

    /** run key, receipt id, reason, accepted writes, run key: another member's rollback receipt; OUTPUT returns it. */
    String insertMemberRollbackReceipt() {
        return insertRollbackHead() + " SELECT ?, ?, ?, c.lease_epoch, ? FROM " + campaign + " AS c WHERE c.run_key = ?";
    }
}
