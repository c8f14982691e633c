package io.dpone.backfill.core.heal;

import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.core.engine.DatabaseFailureException.Kind;
import org.junit.jupiter.api.Test;

import java.io.EOFException;
import java.net.SocketException;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectionLossTest {
    @Test
    void lostConnectionsAndServerRestartsAreConnectionLossWhereverTheyAreWrapped() {
        assertThat(ConnectionLoss.is(new SQLException("I/O error", "08006"))).isTrue();
        assertThat(ConnectionLoss.is(new SQLException("closed", "08003"))).isTrue();
        assertThat(ConnectionLoss.is(new SQLException("terminating connection due to administrator command", "57P01"))).isTrue();
        assertThat(ConnectionLoss.is(new SQLException("the database system is starting up", "57P03"))).isTrue();
        assertThat(ConnectionLoss.is(new IllegalStateException("copy failed", new SQLException("x", "XX000",
                new SocketException("Connection reset"))))).isTrue();
        assertThat(ConnectionLoss.is(new RuntimeException(new EOFException()))).isTrue();
        assertThat(ConnectionLoss.is(new DatabaseFailureException(Kind.TRANSIENT, "ConnectionLost", "tds", null))).isTrue();
    }

    @Test
    void statementFailuresOnALiveConnectionAreNot() {
        assertThat(ConnectionLoss.is(new SQLException("duplicate key", "23505"))).isFalse();
        assertThat(ConnectionLoss.is(new SQLException("lock timeout", "55P03"))).isFalse();
        assertThat(ConnectionLoss.is(new SQLException("password authentication failed", "28P01"))).isFalse();
        assertThat(ConnectionLoss.is(new DatabaseFailureException(Kind.TRANSIENT, "LockTimeout", "lock", null))).isFalse();
        assertThat(ConnectionLoss.is(new IllegalStateException("count mismatch"))).isFalse();
    }

    @Test
    void describeNamesTheServersReason() {
        assertThat(ConnectionLoss.describe(new IllegalStateException("ledger claim failed",
                new SQLException("terminating connection due to administrator command", "57P01"))))
                .isEqualTo("ledger claim failed (terminating connection due to administrator command)");
    }
}
