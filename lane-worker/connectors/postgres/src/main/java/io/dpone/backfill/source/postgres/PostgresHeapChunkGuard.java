package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.source.HeapExtentRefusedException;
import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;

/**
 * Opens the source transaction one physical chunk is read in and proves, inside it, what the anchor rule needs
 * (ADR 0015): REPEATABLE READ, so the check below and the chunk's COPY share one snapshot; the table locked ACCESS
 * SHARE before that snapshot, so no rewrite (VACUUM FULL, CLUSTER, TRUNCATE, a pg_repack swap: all need ACCESS
 * EXCLUSIVE) can run while the chunk is read; then the storage identity must still be the one preparation recorded
 * (else block numbers no longer address the planned rows) and the snapshot's next xid must be in epoch 0 (else a
 * frozen tuple's raw xmin could collide with a post-anchor xid). Any violation fails the chunk, naming why.
 */
final class PostgresHeapChunkGuard {
    private final String schema;
    private final String table;
    private final HeapExtent recorded;
    private final BigInteger anchor;
    /** The connection's isolation before the chunk, given back after it. */
    private int isolationBefore = Connection.TRANSACTION_READ_COMMITTED;

    PostgresHeapChunkGuard(String schema, String table, HeapExtent recorded, String anchorXmin) {
        this.schema = schema;
        this.table = table;
        this.recorded = Objects.requireNonNull(recorded, "recorded heap extent");
        this.anchor = new BigInteger(Objects.requireNonNull(anchorXmin, "anchor"));
    }

    BigInteger anchor() {
        return anchor;
    }

    /** Begins the chunk's transaction and checks it; on a refusal or an error the transaction is ended again. */
    void begin(Connection source) throws SQLException {
        isolationBefore = source.getTransactionIsolation();
        source.setAutoCommit(false);
        source.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        try {
            try (Statement s = source.createStatement()) {
                // LOCK takes no snapshot: the snapshot is the next statement's, taken with the lock already held.
                s.execute("LOCK TABLE " + PostgresIdentifiers.qualified(schema, table) + " IN ACCESS SHARE MODE");
            }
            PostgresHeapState state = PostgresHeapState.read(source, schema, table).orElseThrow(() ->
                    new HeapExtentRefusedException("source table " + schema + "." + table + " no longer exists"));
            List<String> refusals = state.refusals();
            if (!refusals.isEmpty()) {
                throw new HeapExtentRefusedException(String.join("; ", refusals));
            }
            if (!state.storage().equals(recorded.storage())) {
                throw new HeapExtentRefusedException("source table " + schema + "." + table + " was rewritten since"
                        + " preparation (storage " + recorded.storage() + " is now " + state.storage() + ", e.g. by"
                        + " VACUUM FULL, CLUSTER, TRUNCATE or pg_repack): the planned block ranges no longer address"
                        + " the rows they did, so no further physical chunk is read; start a new campaign");
            }
            if (anchor.compareTo(state.nextXid()) > 0) {
                throw new HeapExtentRefusedException("anchor " + anchor + " is ahead of the source's next xid "
                        + state.nextXid() + ": it was not captured on this server");
            }
        } catch (SQLException | RuntimeException e) {
            end(source);
            throw e;
        }
    }

    /** Ends the read-only chunk transaction; rolling back a read changes nothing. */
    void end(Connection source) throws SQLException {
        try {
            source.rollback();
        } finally {
            source.setAutoCommit(true);
            source.setTransactionIsolation(isolationBefore);
        }
    }
}
