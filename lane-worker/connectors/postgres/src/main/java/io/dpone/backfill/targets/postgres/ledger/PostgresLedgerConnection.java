package io.dpone.backfill.targets.postgres.ledger;

import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.postgres.PostgresFailures;
import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.targets.ledger.LedgerConnection;
import io.dpone.backfill.targets.ledger.LedgerWork;
import io.dpone.backfill.targets.ledger.SqlLedgerStore;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;

/**
 * The ledger's state connection on PostgreSQL, in {@code spec.state.schema} of the target database; {@link #store}
 * puts the ledger together over it. The connection stays in autocommit between calls. Database errors surface as
 * {@link io.dpone.backfill.core.engine.DatabaseFailureException} (transient or permanent, with a reason, see
 * {@link PostgresFailures}) with the {@link SQLException} and its SQL state as the cause.
 */
public final class PostgresLedgerConnection implements LedgerConnection {
    private final PostgresJdbc sql;
    private final String stateSchema;

    private PostgresLedgerConnection(Connection stateConnection, String stateSchema) {
        this.sql = new PostgresJdbc(Objects.requireNonNull(stateConnection, "stateConnection"));
        this.stateSchema = Objects.requireNonNull(stateSchema, "stateSchema");
    }

    /**
     * @param stateConnection the lane's or driver's state connection to the target database; put in autocommit
     * @param stateSchema     {@code spec.state.schema}
     */
    public static LedgerStore store(Connection stateConnection, String stateSchema) {
        PostgresLedgerConnection db = new PostgresLedgerConnection(stateConnection, stateSchema);
        try {
            stateConnection.setAutoCommit(true);
        } catch (SQLException e) {
            throw db.failure("ledger open in schema " + stateSchema, e);
        }
        return new SqlLedgerStore(stateSchema, db, new PostgresCampaignStatements(stateConnection, stateSchema),
                new PostgresChunkStatements(stateConnection, stateSchema),
                new PostgresReceiptStatements(stateConnection, stateSchema));
    }

    @Override
    public Integer applySchema() throws SQLException {
        PostgresLedgerSchema.apply(sql.connection(), stateSchema);
        return sql.one("SELECT max(version) AS v FROM " + PostgresLedgerSchema.table(stateSchema, "ledger_version"),
                rs -> (Integer) rs.getObject("v")).orElse(null);
    }

    @Override
    public int schemaVersion() {
        return PostgresLedgerSchema.VERSION;
    }

    @Override
    public <T> T inTransaction(LedgerWork<T> work) throws SQLException {
        return sql.inTransaction(work::run);
    }

    @Override
    public boolean isDuplicateKey(SQLException e) {
        return PostgresJdbc.UNIQUE_VIOLATION.equals(e.getSQLState());
    }

    /** {@code now() + ? * interval '1 millisecond'} takes a bigint. */
    @Override
    public long maxLeaseMillis() {
        return Long.MAX_VALUE;
    }

    @Override
    public RuntimeException failure(String operation, SQLException e) {
        return PostgresFailures.of(operation + " failed (SQL state " + e.getSQLState() + "): " + e.getMessage(), e);
    }
}
