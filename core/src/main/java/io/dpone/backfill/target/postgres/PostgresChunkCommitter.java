package io.dpone.backfill.target.postgres;

import io.dpone.backfill.core.lane.ChunkCommitter;
import io.dpone.backfill.core.lane.ChunkOutcome;
import io.dpone.backfill.core.lane.FaultPoint;
import io.dpone.backfill.core.lane.FaultPoints;
import io.dpone.backfill.core.lane.LeaseWatch;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.source.postgres.PostgresChunkPredicate;
import io.dpone.backfill.target.postgres.ledger.PostgresLedgerSchema;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyOut;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * PostgreSQL to PostgreSQL chunk commit. One transaction on the sink connection: receipt row, then
 * {@code COPY ... TO STDOUT} on the source streamed buffer by buffer into {@code COPY ... FROM STDIN} on the sink,
 * then the chunk's ledger row moved to committed WHERE owner and epoch still match. Zero rows there means the
 * lease was lost and the whole transaction, rows included, is rolled back.
 */
public final class PostgresChunkCommitter implements ChunkCommitter {
    // receiptWait (constructor): how long the chunk transaction waits for another transaction holding the same
    // chunk's receipt row, i.e. a zombie lane whose chunk lease expired. Such a holder cannot legitimately keep it
    // longer than one lease TTL, so lanes pass the lease TTL; it is not the publisher's lock timeout.
    /** Rows between lease checks and the size of a write to the sink: bounded memory, no chunk held whole. */
    private static final int CHECK_EVERY_ROWS = 1000;
    private static final int FLUSH_BYTES = 64 * 1024;
    private static final int MID_COPY_ROW = 500;

    private final Connection source;
    private final Connection sink;
    private final String stateSchema;
    private final ChunkPlan plan;
    private final String selectPrefix;
    private final String copyIn;
    private final Duration receiptWait;
    private final FaultPoints faults;

    public PostgresChunkCommitter(Connection source, Connection sink, String stateSchema, ChunkPlan plan,
                                  String sourceSchema, String sourceTable, String loadSchema, String loadTable,
                                  List<String> columns, Duration receiptWait, FaultPoints faults) {
        this.source = source;
        this.sink = sink;
        this.stateSchema = stateSchema;
        this.plan = plan;
        String columnList = columns.stream().map(PostgresIdentifiers::quote).collect(Collectors.joining(", "));
        this.selectPrefix = "COPY (SELECT " + columnList + " FROM " + PostgresIdentifiers.qualified(sourceSchema, sourceTable) + " WHERE ";
        this.copyIn = "COPY " + PostgresIdentifiers.qualified(loadSchema, loadTable) + " (" + columnList + ") FROM STDIN";
        this.receiptWait = receiptWait;
        this.faults = faults;
    }

    @Override
    public ChunkOutcome commit(ChunkClaim claim, ChunkRange range, LeaseWatch watch) throws SQLException {
        boolean autoCommit = sink.getAutoCommit();
        sink.setAutoCommit(false);
        try {
            try (Statement s = sink.createStatement()) {
                // A zombie lane's uncommitted receipt for this chunk blocks ours: wait a bounded time, then fail
                // this attempt (lock timeout, 55P03) and leave the chunk to a later one.
                s.execute("SET LOCAL lock_timeout = '" + receiptWait.toMillis() + "ms'");
            }
            if (!insertReceipt(claim)) {
                sink.rollback();
                return ChunkOutcome.alreadyReceipted();
            }
            long[] counts = stream(claim, range, watch);
            if (counts == null) {
                sink.rollback();
                return ChunkOutcome.leaseLost("lease lost during copy");
            }
            if (counts[0] != counts[1]) {
                throw new SQLException("rows extracted (" + counts[0] + ") differ from rows loaded (" + counts[1] + ")");
            }
            watch.copyFinished();
            updateReceipt(claim, counts[1]);
            faults.reached(FaultPoint.BEFORE_COMMIT, claim.chunkId());
            if (!markCommitted(claim, counts)) {
                sink.rollback();
                return ChunkOutcome.leaseLost("epoch " + claim.epoch() + " no longer owns the chunk");
            }
            sink.commit();
            faults.reached(FaultPoint.AFTER_COMMIT, claim.chunkId());
            return ChunkOutcome.committed(counts[0], counts[1]);
        } catch (SQLException | RuntimeException e) {
            safeRollback();
            throw e;
        } finally {
            if (!sink.isClosed()) {
                sink.setAutoCommit(autoCommit);
            }
        }
    }

    private boolean insertReceipt(ChunkClaim claim) throws SQLException {
        try (PreparedStatement ps = sink.prepareStatement("INSERT INTO " + PostgresLedgerSchema.table(stateSchema, "chunk_receipt")
                + " (run_key, chunk_id, epoch, owner) VALUES (?, ?, ?, ?) ON CONFLICT (run_key, chunk_id) DO NOTHING")) {
            ps.setString(1, claim.runKey());
            ps.setInt(2, claim.chunkId());
            ps.setLong(3, claim.epoch());
            ps.setString(4, claim.owner());
            return ps.executeUpdate() == 1;
        }
    }

    /** Streams the chunk; returns {extracted, loaded}, or null when the lease was lost mid-copy. */
    private long[] stream(ChunkClaim claim, ChunkRange range, LeaseWatch watch) throws SQLException {
        String select = selectPrefix + PostgresChunkPredicate.render(plan, range) + ") TO STDOUT";
        CopyIn in = sink.unwrap(PGConnection.class).getCopyAPI().copyIn(copyIn);
        CopyOut out = null;
        // Only a crash test needs rows on the server mid-copy: production streams without the extra flush.
        boolean midCopyArmed = faults.armed(FaultPoint.MID_COPY);
        try {
            out = source.unwrap(PGConnection.class).getCopyAPI().copyOut(select);
            byte[] buffer = new byte[FLUSH_BYTES];
            int filled = 0;
            long rows = 0;
            byte[] row;
            while ((row = out.readFromCopy()) != null) {
                if (filled + row.length > buffer.length) {
                    in.writeToCopy(buffer, 0, filled);
                    filled = 0;
                }
                if (row.length > buffer.length) {
                    in.writeToCopy(row, 0, row.length);
                } else {
                    System.arraycopy(row, 0, buffer, filled, row.length);
                    filled += row.length;
                }
                rows++;
                if (midCopyArmed && rows == MID_COPY_ROW) {
                    in.flushCopy();
                    faults.reached(FaultPoint.MID_COPY, claim.chunkId());
                }
                if (rows % CHECK_EVERY_ROWS == 0) {
                    watch.copied(rows);
                }
                if (rows % CHECK_EVERY_ROWS == 0 && watch.lost()) {
                    out.cancelCopy();
                    out = null;
                    in.cancelCopy();
                    return null;
                }
            }
            if (filled > 0) {
                in.writeToCopy(buffer, 0, filled);
            }
            long loaded = in.endCopy();
            return new long[]{out.getHandledRowCount(), loaded};
        } finally {
            if (out != null && out.isActive()) {
                out.cancelCopy();
            }
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
    }

    private void updateReceipt(ChunkClaim claim, long rows) throws SQLException {
        try (PreparedStatement ps = sink.prepareStatement("UPDATE " + PostgresLedgerSchema.table(stateSchema, "chunk_receipt")
                + " SET rows_loaded = ? WHERE run_key = ? AND chunk_id = ? AND epoch = ?")) {
            ps.setLong(1, rows);
            ps.setString(2, claim.runKey());
            ps.setInt(3, claim.chunkId());
            ps.setLong(4, claim.epoch());
            if (ps.executeUpdate() != 1) {
                throw new SQLException("chunk receipt vanished inside its own transaction");
            }
        }
    }

    /** clock_timestamp(), not now(): now() is the transaction's start, before the copy, and would hide its duration. */
    private boolean markCommitted(ChunkClaim claim, long[] counts) throws SQLException {
        try (PreparedStatement ps = sink.prepareStatement("UPDATE " + PostgresLedgerSchema.table(stateSchema, "chunk")
                + " SET state = 'committed', rows_extracted = ?, rows_loaded = ?, finished_at = clock_timestamp(), lease_expires = NULL,"
                + " last_error = NULL WHERE run_key = ? AND chunk_id = ? AND owner = ? AND epoch = ? AND state = 'running'")) {
            ps.setLong(1, counts[0]);
            ps.setLong(2, counts[1]);
            ps.setString(3, claim.runKey());
            ps.setInt(4, claim.chunkId());
            ps.setString(5, claim.owner());
            ps.setLong(6, claim.epoch());
            return ps.executeUpdate() == 1;
        }
    }

    private void safeRollback() {
        try {
            if (!sink.isClosed()) {
                sink.rollback();
            }
        } catch (SQLException ignored) {
            // The connection is gone; the server aborts the transaction itself.
        }
    }
}
