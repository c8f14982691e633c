package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.mssql.MssqlJdbc;
import java.sql.SQLException;

/**
 * Adds a chunk just moved to committed to its lane's progress counters (ADR 0027), in the transaction that moved
 * it: the counters commit or roll back with the chunk. A lane's row is created by its first commit; one owner's
 * commits never run at once (its lane lock), so the update-then-insert cannot race another insert of the same row.
 */
final class MssqlCommittedCount {
    private MssqlCommittedCount() {
    }

    static void add(MssqlJdbc sql, MssqlLedgerText statements, String runKey, int chunkId) throws SQLException {
        if (sql.update(statements.addCommittedCount(), runKey, chunkId) == 0
                && sql.update(statements.insertCommittedCount(), runKey, chunkId) != 1) {
            throw new SQLException("chunk " + chunkId + " of " + runKey + " is not committed inside its own commit");
        }
    }
}
