package io.dpone.backfill.postgres;

import io.dpone.backfill.core.heal.StaleSessions;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;

/**
 * A PostgreSQL session is its backend pid and start time: {@code pg_terminate_backend} ends it, and the start
 * time keeps a reused pid safe. A role may end its own backends without any grant.
 */
public final class PostgresSessions implements StaleSessions {
    public static final PostgresSessions INSTANCE = new PostgresSessions();

    private PostgresSessions() {
    }

    @Override
    public String identify(Connection connection) {
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_backend_pid() || '@' || backend_start::text FROM pg_stat_activity"
                     + " WHERE pid = pg_backend_pid()")) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            return null;
        }
    }

    @Override
    public int end(Connection fresh, Collection<String> sessions) {
        int ended = 0;
        for (String session : sessions) {
            if (session == null) {
                continue;
            }
            int at = session.indexOf('@');
            try (PreparedStatement ps = fresh.prepareStatement("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    + " WHERE pid = ? AND backend_start = ?::timestamptz AND pid <> pg_backend_pid()")) {
                ps.setInt(1, Integer.parseInt(session.substring(0, at)));
                ps.setString(2, session.substring(at + 1));
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        ended++;
                    }
                }
                awaitGone(fresh, session.substring(0, at));
            } catch (SQLException e) {
                // Not ours to end (or gone already): the server ends it when it notices the dead peer.
            }
        }
        return ended;
    }

    /** Termination is a signal: wait (briefly) until the backend has exited and released its locks. */
    private static void awaitGone(Connection fresh, String pid) throws SQLException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        try (PreparedStatement ps = fresh.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE pid = ?")) {
            ps.setInt(1, Integer.parseInt(pid));
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getLong(1) == 0) {
                        return;
                    }
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
