package io.dpone.backfill.core.heal;

import io.dpone.backfill.core.engine.DatabaseFailureException;

import java.io.IOException;
import java.sql.SQLException;

/**
 * Whether a failure means a connection is gone (server restart, failover, reset, a deadline that aborted it), as
 * opposed to a failure of the statement on a live connection. Only the first is healed by reconnecting: the
 * second is the chunk's or the campaign's own failure and keeps its attempt accounting.
 */
public final class ConnectionLoss {
    private ConnectionLoss() {
    }

    public static boolean is(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DatabaseFailureException d
                    && ("ConnectionLost".equals(d.reason()) || "ServerRestarting".equals(d.reason()))) {
                return true;
            }
            if (t instanceof SQLException s && lostState(s.getSQLState())) {
                return true;
            }
            // A socket that was reset, closed by a deadline, or ended mid-message.
            if (t instanceof IOException) {
                return true;
            }
        }
        return false;
    }

    /** Class 08 (connection exception) everywhere; 57P01-57P03 are PostgreSQL's shutdown and startup states. */
    private static boolean lostState(String sqlState) {
        return sqlState != null && (sqlState.startsWith("08") || sqlState.equals("57P01") || sqlState.equals("57P02")
                || sqlState.equals("57P03"));
    }

    /** One line for logs: the innermost message, which names the server's reason. */
    public static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String outer = failure.getMessage();
        String inner = root == failure ? null : root.getMessage();
        return inner == null || (outer != null && outer.contains(inner)) ? String.valueOf(outer) : outer + " (" + inner + ")";
    }
}
