package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.core.heal.StaleSessions;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;

/**
 * A SQL Server session is its {@code @@SPID} and login time. {@code KILL} needs ALTER ANY CONNECTION, which a
 * campaign's login usually lacks: then nothing is ended here and SQL Server ends the session when its own
 * keep-alive finds the peer gone (the half-open sessions of a real network fault; a proxy that keeps the TCP
 * session alive defeats that, see the runbook).
 */
public final class MssqlSessions implements StaleSessions {
    public static final MssqlSessions INSTANCE = new MssqlSessions();

    private MssqlSessions() {
    }

    @Override
    public String identify(Connection connection) {
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT CAST(@@SPID AS varchar(12)) + '@' + CONVERT(varchar(33), login_time, 126)"
                     + " FROM sys.dm_exec_sessions WHERE session_id = @@SPID")) {
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
            int spid = Integer.parseInt(session.substring(0, at));
            try (java.sql.PreparedStatement ps = fresh.prepareStatement("SELECT count(*) FROM sys.dm_exec_sessions"
                    + " WHERE session_id = ? AND CONVERT(varchar(33), login_time, 126) = ? AND session_id <> @@SPID")) {
                ps.setInt(1, spid);
                ps.setString(2, session.substring(at + 1));
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next() || rs.getInt(1) == 0) {
                        continue;
                    }
                }
                try (Statement kill = fresh.createStatement()) {
                    // KILL takes a literal, not a parameter; spid is an int parsed above.
                    kill.execute("KILL " + spid);
                    ended++;
                }
            } catch (SQLException e) {
                // No permission, or gone already: the server ends it when it notices the dead peer.
            }
        }
        return ended;
    }
}
