package io.dpone.backfill.core.heal;

import java.sql.Connection;
import java.util.Collection;

/**
 * Ends this process's own abandoned server sessions after a reconnect. A connection that went half-open (the
 * network stopped carrying bytes, the server still has the session) keeps its locks, its open COPY and, for a
 * driver, its session lock: closing it on our side tells the server nothing. Each session is named when its
 * connection opens, so only a session this process opened is ever ended, never one a pid was reused for.
 */
public interface StaleSessions {
    /** The server's name for {@code connection}'s session; null when the server cannot say. */
    String identify(Connection connection);

    /**
     * Ends the named sessions from {@code fresh}; returns how many the server ended. A server that does not let
     * this login end its own sessions returns 0: the server ends them when it notices the dead peer.
     */
    int end(Connection fresh, Collection<String> sessions);

    StaleSessions NONE = new StaleSessions() {
        @Override
        public String identify(Connection connection) {
            return null;
        }

        @Override
        public int end(Connection fresh, Collection<String> sessions) {
            return 0;
        }
    };
}
