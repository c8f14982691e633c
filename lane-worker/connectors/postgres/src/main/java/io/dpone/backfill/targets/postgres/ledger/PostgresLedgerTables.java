package io.dpone.backfill.targets.postgres.ledger;

import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The ledger's tables in one state schema on one connection, and the SQL its statements share: the lease fence, the
 * claimable rule and the advisory lock keys. The statements of each aggregate extend it ({@link
 * PostgresCampaignStatements}, {@link PostgresChunkStatements}, {@link PostgresReceiptStatements}), as Spring Batch's
 * DAOs share their table prefix. The schema they run against is {@code ledger/v1/postgresql.sql}. Statements run in
 * the caller's transaction, or in autocommit; each write is one statement, fenced by owner and epoch (chunks) or by a
 * live campaign lease on the database clock (campaign), and zero rows means the race was lost.
 */
abstract class PostgresLedgerTables {

    /** Campaign rows a lease holder may write: the lease must still be ours and still live by the database clock. */
    // The statement's own time, not now() (its transaction's start): a fence at the end of a long swap (ADR 0024)
    // must judge expiry when it runs.
    static final String LEASE_FENCE =
            "run_key = ? AND lease_owner = ? AND lease_epoch = ? AND lease_expires >= statement_timestamp()";

    static final String TTL = "now() + ? * interval '1 millisecond'";

    /** The advisory lock key of {@code ?} (a lane lock's name prefix) followed by the row's owner. */
    static final String OWNER_LANE_LOCK_KEY = "pg_catalog.hashtextextended(? || owner, 0)";

    static final String ADVISORY_IN_THIS_DATABASE = "l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
            + " AND l.database = (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname = pg_catalog.current_database())";

    /**
     * No other session holds the row owner's lane lock ({@code ?} = the lane lock prefix, ADR 0021): with
     * {@code owner_locked}, the owner's session is gone, and so is every transaction it had open.
     */
    static final String OWNER_SESSION_GONE = "(owner_locked AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_locks l"
            + " WHERE " + ADVISORY_IN_THIS_DATABASE + " AND l.pid <> pg_catalog.pg_backend_pid()"
            + " AND ((l.classid::int8 << 32) | l.objid::int8) = " + OWNER_LANE_LOCK_KEY + "))";

    /**
     * Claimable by the same rule in the read ({@link #claimable}, one branch per state) and in the claim; the retry
     * policy's part is bound by the read.
     * Parameters: the lane lock prefix, allow failed, max attempts.
     */
    static final String CLAIMABLE = "(state = 'pending' OR (state = 'running' AND (lease_expires < now()"
            + " OR " + OWNER_SESSION_GONE + ")) OR (? AND state = 'failed' AND NOT refused AND attempts < ?))";

    /**
     * Chunks that will (again) need a lane: not started, failed, or abandoned by a lane whose lease expired. For the
     * ETA only: a chunk whose lane's session is gone before its lease expired counts as running until then.
     */
    static final String WAITING = "state IN ('pending', 'failed') OR (state = 'running' AND lease_expires < now())";

    static final String LIVE_RUNNING = "state = 'running' AND lease_expires >= now()";

    /** {@code ?} = the driver lock's name: its bigint advisory lock key. */
    static final String LOCK_KEY = "pg_catalog.hashtextextended(?, 0)";

    /**
     * This session holds the advisory lock named {@code ?} (the driver's or a lane's). pg_locks shows a bigint key
     * as classid (high 32 bits) and objid (low 32 bits) with objsubid 1.
     */
    static final String HOLDS_LOCK = "EXISTS (SELECT 1 FROM pg_catalog.pg_locks l WHERE " + ADVISORY_IN_THIS_DATABASE
            + " AND l.pid = pg_catalog.pg_backend_pid() AND ((l.classid::int8 << 32) | l.objid::int8) = " + LOCK_KEY + ")";

    final PostgresJdbc sql;

    final String stateSchema;

    final String campaign;

    final String chunk;

    final String chunkReceipt;

    final String publicationReceipt;

    final String handoffReceipt;

    final String rollbackReceipt;

    final String runProgress;

    final String groupMember;

    PostgresLedgerTables(Connection connection, String stateSchema) {
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
        this.groupMember = PostgresLedgerSchema.table(stateSchema, "publication_group_member");
    }

    /** Looked up with to_regclass, so asking creates nothing. */
    public boolean ledgerPresent() throws SQLException {
        return sql.one("SELECT pg_catalog.to_regclass(?) IS NOT NULL AS present", rs -> rs.getBoolean("present"),
                campaign).orElse(false);
    }


    /**
     * The text whose 64-bit {@code hashtextextended} is the advisory lock key: namespaced apart from the ledger's
     * and the publication's locks, and length-prefixed so that no two (state schema, run key) pairs give one text.
     */
    String driverLockName(String runKey) {
        return "dpone-backfill-driver:" + stateSchema.length() + ":" + stateSchema + ":" + runKey;
    }

    boolean tryAdvisoryLock(String name) throws SQLException {
        return sql.one("SELECT pg_catalog.pg_try_advisory_lock(" + LOCK_KEY + ") AS locked", rs -> rs.getBoolean("locked"),
                name).orElse(false);
    }


    /** Every lane lock of the campaign starts with this: namespaced and length-prefixed like the driver lock. */
    String laneLockPrefix(String runKey) {
        return "dpone-backfill-lane:" + stateSchema.length() + ":" + stateSchema + ":" + runKey.length() + ":" + runKey + ":";
    }

    String laneLockName(String runKey, String owner) {
        return laneLockPrefix(runKey) + owner;
    }

    /**
     * {@code UPDATE campaign SET <set> WHERE <condition> <lease fence>}; parameters are the set and condition
     * values in order, then the lease. True iff exactly one row changed.
     */
    boolean fenced(String set, String condition, CampaignLease lease, Object... values) throws SQLException {
        Object[] params = new Object[values.length + 3];
        System.arraycopy(values, 0, params, 0, values.length);
        params[values.length] = lease.runKey();
        params[values.length + 1] = lease.owner();
        params[values.length + 2] = lease.epoch();
        return sql.update("UPDATE " + campaign + " SET " + set + " WHERE " + condition + LEASE_FENCE, params) == 1;
    }
}
