package io.dpone.backfill.target.postgres;

import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.lane.ChunkSink;
import io.dpone.backfill.core.lane.ChunkTransaction;
import io.dpone.backfill.core.lane.RowEncoding;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.target.postgres.ledger.PostgresLedgerStatements;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The PostgreSQL chunk sink: the source's COPY text rows pass through untouched into {@code COPY load_table FROM
 * STDIN}, inside one transaction on the sink connection that also holds the chunk's receipt and ledger update.
 */
public final class PostgresChunkSink implements ChunkSink {
    /** Writes to the server in buffers of this size: bounded memory, no chunk held whole. */
    private static final int FLUSH_BYTES = 64 * 1024;

    private final Connection sink;
    private final PostgresLedgerStatements ledger;
    private final String copyIn;
    private final Duration receiptWait;

    /**
     * @param receiptWait how long the chunk transaction waits for another transaction holding the same chunk's
     *                    receipt row: a zombie lane whose chunk lease expired, which cannot legitimately hold it
     *                    longer than one lease TTL. It is not the publisher's lock timeout.
     */
    public PostgresChunkSink(Connection sink, String stateSchema, String loadSchema, String loadTable, List<String> columns,
                             Duration receiptWait) {
        this.sink = sink;
        this.ledger = new PostgresLedgerStatements(sink, stateSchema);
        String columnList = columns.stream().map(PostgresIdentifiers::quote).collect(Collectors.joining(", "));
        this.copyIn = "COPY " + PostgresIdentifiers.qualified(loadSchema, loadTable) + " (" + columnList + ") FROM STDIN";
        this.receiptWait = receiptWait;
    }

    @Override
    public RowEncoding encoding() {
        return RowEncoding.POSTGRES_COPY_TEXT;
    }

    @Override
    public ChunkTransaction begin(ChunkClaim claim) throws SQLException {
        boolean autoCommit = sink.getAutoCommit();
        sink.setAutoCommit(false);
        try (Statement s = sink.createStatement()) {
            // A zombie lane's uncommitted receipt for this chunk blocks ours: wait a bounded time, then fail this
            // attempt (lock timeout, 55P03) and leave the chunk to a later one.
            s.execute("SET LOCAL lock_timeout = '" + receiptWait.toMillis() + "ms'");
        } catch (SQLException | RuntimeException e) {
            sink.rollback();
            sink.setAutoCommit(autoCommit);
            throw e;
        }
        return new Transaction(claim, autoCommit);
    }

    private final class Transaction implements ChunkTransaction {
        private final ChunkClaim claim;
        private final boolean autoCommit;
        private CopyIn in;
        private byte[] buffer;
        private int filled;
        private boolean committed;

        Transaction(ChunkClaim claim, boolean autoCommit) {
            this.claim = claim;
            this.autoCommit = autoCommit;
        }

        @Override
        public boolean insertReceipt() throws SQLException {
            return ledger.insertChunkReceipt(claim);
        }

        @Override
        public long load(ChunkRows rows) throws Exception {
            in = sink.unwrap(PGConnection.class).getCopyAPI().copyIn(copyIn);
            buffer = new byte[FLUSH_BYTES];
            filled = 0;
            try {
                while (rows.next()) {
                    byte[] row = rows.copyBytes();
                    if (filled + row.length > buffer.length) {
                        writeBuffered();
                    }
                    if (row.length > buffer.length) {
                        in.writeToCopy(row, 0, row.length);
                    } else {
                        System.arraycopy(row, 0, buffer, filled, row.length);
                        filled += row.length;
                    }
                }
                writeBuffered();
                return in.endCopy();
            } finally {
                if (in.isActive()) {
                    in.cancelCopy();
                }
            }
        }

        @Override
        public void flush() throws SQLException {
            writeBuffered();
            in.flushCopy();
        }

        private void writeBuffered() throws SQLException {
            if (filled > 0) {
                in.writeToCopy(buffer, 0, filled);
                filled = 0;
            }
        }

        @Override
        public void recordLoaded(long rowsLoaded) throws SQLException {
            ledger.recordReceiptRows(claim, rowsLoaded);
        }

        @Override
        public boolean markCommitted(long rowsExtracted, long rowsLoaded) throws SQLException {
            return ledger.markChunkCommitted(claim, rowsExtracted, rowsLoaded);
        }

        @Override
        public void commit() throws SQLException {
            sink.commit();
            committed = true;
        }

        @Override
        public void close() {
            try {
                if (!sink.isClosed()) {
                    if (!committed) {
                        sink.rollback();
                    }
                    sink.setAutoCommit(autoCommit);
                }
            } catch (SQLException ignored) {
                // The connection is gone; the server aborts the transaction itself.
            }
        }
    }
}
