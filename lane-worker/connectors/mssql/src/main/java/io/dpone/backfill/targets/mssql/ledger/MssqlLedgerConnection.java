package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.mssql.MssqlJdbc;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.targets.ledger.LedgerConnection;
import io.dpone.backfill.targets.ledger.LedgerWork;
import io.dpone.backfill.targets.ledger.SqlLedgerStore;
import io.dpone.backfill.targets.mssql.MssqlFailures;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Objects;

/**
 * The ledger's state connection on SQL Server, in {@code spec.state.schema} of the target database; {@link #store}
 * puts the ledger together over it, with the same contract and meaning as on PostgreSQL. The connection stays in
 * autocommit between calls, with {@code SET LOCK_TIMEOUT} bounding every lock wait and {@code XACT_ABORT} on.
 * Database errors surface as {@link io.dpone.backfill.core.engine.DatabaseFailureException} (transient or
 * permanent, with a reason, see {@link MssqlFailures}) with the {@link SQLException} as the cause.
 */
public final class MssqlLedgerConnection implements LedgerConnection {
    public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(10);
    private static final int DUPLICATE_KEY = 2627;
    private static final int DUPLICATE_INDEX_KEY = 2601;

    private final MssqlJdbc sql;
    private final String stateSchema;
    private final Duration lockTimeout;
    private final MssqlLedgerText statements;

    private MssqlLedgerConnection(Connection stateConnection, String stateSchema, Duration lockTimeout) {
        this.sql = new MssqlJdbc(Objects.requireNonNull(stateConnection, "stateConnection"));
        this.stateSchema = Objects.requireNonNull(stateSchema, "stateSchema");
        this.lockTimeout = lockTimeout;
        this.statements = new MssqlLedgerText(stateSchema);
    }

    /**
     * @param stateConnection the lane's or driver's state connection to the target database; put in autocommit
     * @param stateSchema     {@code spec.state.schema}
     */
    public static LedgerStore store(Connection stateConnection, String stateSchema) {
        return store(stateConnection, stateSchema, DEFAULT_LOCK_TIMEOUT);
    }

    /** @param lockTimeout the longest any statement (or the schema's application lock) waits for a lock */
    public static LedgerStore store(Connection stateConnection, String stateSchema, Duration lockTimeout) {
        return store(stateConnection, stateSchema, lockTimeout, false);
    }

    /**
     * @param laneLocksOnBabelfish take lane locks on Babelfish as well; for tests that ask for at most a few
     *                             conflicting lock calls per session
     */
    public static LedgerStore store(Connection stateConnection, String stateSchema, Duration lockTimeout,
                                    boolean laneLocksOnBabelfish) {
        if (lockTimeout == null || lockTimeout.isNegative() || lockTimeout.isZero()) {
            throw new IllegalArgumentException("lock timeout must be positive: " + lockTimeout);
        }
        MssqlLedgerConnection db = new MssqlLedgerConnection(stateConnection, stateSchema, lockTimeout);
        try {
            stateConnection.setAutoCommit(true);
            try (Statement s = stateConnection.createStatement()) {
                s.execute(MssqlLedgerText.sessionSettings(lockTimeout.toMillis()));
            }
        } catch (SQLException e) {
            throw db.failure("ledger open in schema " + stateSchema, e);
        }
        return new SqlLedgerStore(stateSchema, db, new MssqlCampaignStatements(db.sql, db.statements),
                new MssqlChunkStatements(db.sql, db.statements, laneLocksOnBabelfish),
                new MssqlReceiptStatements(db.sql, db.statements));
    }

    @Override
    public Integer applySchema() throws SQLException {
        MssqlLedgerSchema.apply(sql.connection(), stateSchema, lockTimeout);
        return sql.one(statements.schemaVersion(), rs -> (Integer) rs.getObject("v")).orElse(null);
    }

    @Override
    public int schemaVersion() {
        return MssqlLedgerSchema.VERSION;
    }

    @Override
    public <T> T inTransaction(LedgerWork<T> work) throws SQLException {
        return sql.inTransaction(work::run);
    }

    @Override
    public boolean isDuplicateKey(SQLException e) {
        return e.getErrorCode() == DUPLICATE_KEY || e.getErrorCode() == DUPLICATE_INDEX_KEY;
    }

    /** DATEADD takes an int: a lease longer than about 24 days is refused rather than wrapped. */
    @Override
    public long maxLeaseMillis() {
        return Integer.MAX_VALUE;
    }

    @Override
    public RuntimeException failure(String operation, SQLException e) {
        return MssqlFailures.of(operation + " failed (SQL Server error " + e.getErrorCode() + ", SQL state "
                + e.getSQLState() + "): " + e.getMessage(), e);
    }
}
