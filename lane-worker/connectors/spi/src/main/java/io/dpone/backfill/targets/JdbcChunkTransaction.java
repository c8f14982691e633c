package io.dpone.backfill.targets;

import io.dpone.backfill.core.lane.ChunkTransaction;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The part of a chunk transaction every JDBC sink shares: one commit, and a close that rolls back whatever was not
 * committed and hands the connection back in the autocommit mode it had.
 */
public abstract class JdbcChunkTransaction implements ChunkTransaction {
    private final Connection connection;
    private final boolean autoCommit;
    private boolean committed;

    /** {@code autoCommit}: the connection's mode before the sink turned it off for this chunk. */
    protected JdbcChunkTransaction(Connection connection, boolean autoCommit) {
        this.connection = connection;
        this.autoCommit = autoCommit;
    }

    @Override
    public final void commit() throws SQLException {
        connection.commit();
        committed = true;
    }

    @Override
    public final void close() {
        try {
            if (!connection.isClosed()) {
                if (!committed) {
                    connection.rollback();
                }
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException ignored) {
            // The connection is gone; the server rolls the transaction back itself.
        }
    }
}
