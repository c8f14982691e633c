package io.dpone.backfill.targets.postgres;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.lane.ChunkSink;
import io.dpone.backfill.core.lane.ChunkTransaction;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.postgres.PostgresBinaryCopy;
import io.dpone.backfill.postgres.PostgresFailures;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.targets.JdbcChunkTransaction;
import io.dpone.backfill.targets.postgres.ledger.PostgresChunkStatements;
import io.dpone.backfill.targets.postgres.ledger.PostgresReceiptStatements;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The PostgreSQL chunk sink: the source's COPY rows (text, or binary tuples when preparation found every loaded
 * column's type identical on both sides) pass through untouched into {@code COPY load_table FROM STDIN}, inside one transaction on the sink connection that also holds the chunk's receipt and ledger update.
 */
public final class PostgresChunkSink implements ChunkSink {
    /** Writes to the server in buffers of this size: bounded memory, no chunk held whole. */
    private static final int FLUSH_BYTES = 64 * 1024;

    private final Connection sink;
    private final PostgresReceiptStatements receipts;
    private final PostgresChunkStatements chunks;
    private final String copyIn;
    private final RowEncoding encoding;
    private final Duration receiptWait;

    /**
     * @param receiptWait how long the chunk transaction waits for another transaction holding the same chunk's
     *                    receipt row: a zombie lane whose chunk lease expired, which cannot legitimately hold it
     *                    longer than one lease TTL. It is not the publisher's lock timeout.
     */
    public PostgresChunkSink(Connection sink, String stateSchema, String loadSchema, String loadTable, List<String> columns,
                             Duration receiptWait) {
        this(sink, stateSchema, loadSchema, loadTable, columns, receiptWait, RowEncoding.POSTGRES_COPY_TEXT);
    }

    /** @param encoding COPY text, or binary when preparation recorded that every loaded column's type is identical */
    public PostgresChunkSink(Connection sink, String stateSchema, String loadSchema, String loadTable, List<String> columns,
                             Duration receiptWait, RowEncoding encoding) {
        if (encoding != RowEncoding.POSTGRES_COPY_TEXT && encoding != RowEncoding.POSTGRES_COPY_BINARY) {
            throw new IllegalArgumentException("a PostgreSQL sink loads COPY text or binary, not " + encoding);
        }
        this.sink = sink;
        this.receipts = new PostgresReceiptStatements(sink, stateSchema);
        this.chunks = new PostgresChunkStatements(sink, stateSchema);
        this.encoding = encoding;
        String columnList = columns.stream().map(PostgresIdentifiers::quote).collect(Collectors.joining(", "));
        this.copyIn = "COPY " + PostgresIdentifiers.qualified(loadSchema, loadTable) + " (" + columnList + ") FROM STDIN"
                + (encoding == RowEncoding.POSTGRES_COPY_BINARY ? " (FORMAT binary)" : "");
        this.receiptWait = receiptWait;
    }

    @Override
    public RowEncoding encoding() {
        return encoding;
    }

    /**
     * An error whose SQLSTATE PostgreSQL documents as the data's or the statement's own (classes 22 data exception,
     * 23 integrity constraint, 42 syntax or access rule), anywhere in the cause chain.
     */
    @Override
    public boolean refusesRows(Exception failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException s && s.getSQLState() != null && PostgresFailures.isPermanent(s)) {
                return true;
            }
        }
        return false;
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

    private final class Transaction extends JdbcChunkTransaction {
        private final ChunkClaim claim;
        private CopyIn in;
        private byte[] buffer;
        private int filled;

        Transaction(ChunkClaim claim, boolean autoCommit) {
            super(sink, autoCommit);
            this.claim = claim;
        }

        @Override
        public boolean insertReceipt() throws SQLException {
            return receipts.insertChunkReceipt(claim);
        }

        @Override
        public long load(ChunkRows rows) throws Exception {
            in = sink.unwrap(PGConnection.class).getCopyAPI().copyIn(copyIn);
            buffer = new byte[FLUSH_BYTES];
            filled = 0;
            boolean binary = encoding == RowEncoding.POSTGRES_COPY_BINARY;
            try {
                if (binary) {
                    append(PostgresBinaryCopy.HEADER);
                }
                while (rows.next()) {
                    append(rows.copyBytes());
                }
                if (binary) {
                    append(PostgresBinaryCopy.TRAILER);
                }
                writeBuffered();
                return in.endCopy();
            } finally {
                if (in.isActive()) {
                    in.cancelCopy();
                }
            }
        }

        private void append(byte[] row) throws SQLException {
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
        public void recordLoaded(long rowsLoaded, ChunkDigest digest) throws SQLException {
            receipts.recordReceiptRows(claim, rowsLoaded, digest == null ? null : digest.wire());
        }

        @Override
        public boolean markCommitted(long rowsExtracted, long rowsLoaded) throws SQLException {
            return chunks.markChunkCommitted(claim, rowsExtracted, rowsLoaded);
        }
    }
}
