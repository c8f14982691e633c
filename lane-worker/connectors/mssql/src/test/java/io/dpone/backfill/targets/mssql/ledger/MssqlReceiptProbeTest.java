package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.engine.DatabaseFailureException;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The receipt probe after a claim must not end the lane on a zombie's uncommitted receipt (issue 24). It reads past
 * locked rows (READPAST, with READCOMMITTEDLOCK so READ_COMMITTED_SNAPSHOT databases accept it: sql-docs
 * docs/t-sql/queries/hints-transact-sql-table.md), and a lock timeout (1222) where an engine ignores the hints means
 * "no committed receipt", not a failed lane.
 */
class MssqlReceiptProbeTest {
    @Test
    void theProbeReadsPastARowLockedByAnotherTransaction() {
        String sql = new MssqlLedgerText("ledger").hasChunkReceipt();

        assertThat(sql).isEqualTo("SELECT CASE WHEN EXISTS (SELECT 1 FROM [ledger].chunk_receipt"
                + " WITH (READCOMMITTEDLOCK, READPAST) WHERE run_key = ? AND chunk_id = ?) THEN 1 ELSE 0 END AS present");
    }

    @Test
    void aLockTimeoutOnTheProbeMeansNoCommittedReceiptAndTheLaneGoesOn() {
        List<String> sent = new ArrayList<>();
        LedgerStore store = MssqlLedgerConnection.store(failingQueries(sent, 1222), "ledger");

        assertThat(store.hasChunkReceipt("run-1", 7)).isFalse();
        assertThat(sent).anyMatch(s -> s.contains("READPAST"));
    }

    @Test
    void otherProbeFailuresStillFail() {
        LedgerStore store = MssqlLedgerConnection.store(failingQueries(new ArrayList<>(), 1205), "ledger");

        assertThatThrownBy(() -> store.hasChunkReceipt("run-1", 7)).isInstanceOf(DatabaseFailureException.class)
                .hasMessageContaining("hasChunkReceipt");
    }

    /** A JDBC connection whose session settings succeed and whose every query fails with {@code errorNumber}. */
    private static Connection failingQueries(List<String> sent, int errorNumber) {
        Statement statement = (Statement) Proxy.newProxyInstance(Statement.class.getClassLoader(),
                new Class<?>[] {Statement.class}, (p, m, a) -> switch (m.getName()) {
                    case "execute" -> false;
                    case "close" -> null;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (p, m, a) -> switch (m.getName()) {
                    case "setAutoCommit" -> null;
                    case "getAutoCommit" -> true;
                    case "createStatement" -> statement;
                    case "prepareStatement" -> {
                        sent.add((String) a[0]);
                        yield Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                                new Class<?>[] {PreparedStatement.class}, (q, n, b) -> switch (n.getName()) {
                                    case "executeQuery" -> throw new SQLException("Lock request time out period"
                                            + " exceeded.", "S0001", errorNumber);
                                    case "close" -> null;
                                    default -> null;
                                });
                    }
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }
}
