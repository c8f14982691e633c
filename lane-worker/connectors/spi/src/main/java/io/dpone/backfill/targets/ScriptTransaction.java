package io.dpone.backfill.targets;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Runs statements in one transaction on a connection that may be in autocommit, and leaves the connection's mode as
 * it found it: committed when the work returns, rolled back when it throws. For a ledger's schema script, which must
 * apply whole or not at all on every database.
 */
public final class ScriptTransaction {
    /** Statements run on one {@link Statement} inside the transaction. */
    @FunctionalInterface
    public interface Work {
        void run(Statement statement) throws SQLException;
    }

    private ScriptTransaction() {
    }

    public static void run(Connection connection, Work work) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (Statement s = connection.createStatement()) {
            work.run(s);
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
    }
}
