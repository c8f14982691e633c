package io.dpone.backfill.targets.mssql;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.lane.ChunkSink;
import io.dpone.backfill.core.lane.ChunkTransaction;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.targets.ChunkLoad;
import io.dpone.backfill.targets.JdbcChunkTransaction;
import io.dpone.backfill.targets.mssql.ledger.MssqlChunkReceipts;
import io.dpone.backfill.targets.mssql.types.MssqlValueRejectedException;
import io.dpone.backfill.core.engine.DatabaseFailureException.Kind;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The SQL Server chunk sink: one transaction on the lane's sink connection holding the receipt, the chunk's rows
 * written by SQLServerBulkCopy on that same connection (so inside the open transaction: no internal transaction, a
 * table lock only as the shared bulk update lock of a heap shadow (MssqlLoadShape), one batch, no timeout cutting a
 * long chunk, identity values kept), and the fenced ledger mark. Rows arrive decoded from the source's binary COPY
 * and pass each column's guards as the bulk copy pulls them.
 */
public final class MssqlChunkSink implements ChunkSink {
    private final Connection sink;
    private final ChunkLoad load;
    private final MssqlChunkReceipts receipts;
    private MssqlBulkLoad bulkLoad;

    public MssqlChunkSink(Connection sink, ChunkLoad load) {
        this.sink = sink;
        this.load = load;
        this.receipts = new MssqlChunkReceipts(sink, load.stateSchema());
    }

    @Override
    public RowEncoding encoding() {
        return RowEncoding.VALUES;
    }

    @Override
    public ChunkTransaction begin(ChunkClaim claim) throws SQLException {
        bindOnce();
        boolean autoCommit = sink.getAutoCommit();
        sink.setAutoCommit(false);
        return new Transaction(claim, autoCommit);
    }

    /**
     * A value the column guards refuse, or an error SQL Server numbers as permanent ({@link MssqlFailures}: a
     * constraint, truncation, conversion, a bulk column it refuses, a missing privilege or object), anywhere in the
     * cause chain: the bulk copy wraps what the row source throws.
     */
    @Override
    public boolean refusesRows(Exception failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof MssqlValueRejectedException) {
                return true;
            }
            if (t instanceof SQLException s && s.getErrorCode() != 0
                    && MssqlFailures.classify(s.getErrorCode(), s.getSQLState(), s.getMessage()).kind() == Kind.PERMANENT) {
                return true;
            }
        }
        return false;
    }

    /**
     * Pairs each source column with its target column once per lane; a pair the type map refuses fails the chunk
     * (doctor refused it before the campaign started, so only a changed table gets here).
     */
    private void bindOnce() throws SQLException {
        if (bulkLoad != null) {
            return;
        }
        // Session settings, set once for the lane's sink connection: a zombie lane's uncommitted receipt for a chunk
        // blocks ours at most one lease (then 1222), and any error aborts the whole chunk transaction.
        receipts.configureSession(load.receiptWait());
        bulkLoad = MssqlBulkLoad.bind(load.source(), load.sourceColumns(), sink,
                load.loadSchema(), load.loadTable(), load.columns(), load.keyColumns());
    }

    private final class Transaction extends JdbcChunkTransaction {
        private final ChunkClaim claim;

        Transaction(ChunkClaim claim, boolean autoCommit) {
            super(sink, autoCommit);
            this.claim = claim;
        }

        @Override
        public boolean insertReceipt() throws SQLException {
            return receipts.insert(claim);
        }

        @Override
        public long load(ChunkRows rows) throws Exception {
            return bulkLoad.write(rows);
        }

        /** The bulk copy streams rows to the server as it pulls them; there is nothing buffered to push. */
        @Override
        public void flush() {
        }

        @Override
        public void recordLoaded(long rowsLoaded, ChunkDigest digest) throws SQLException {
            receipts.recordRows(claim, rowsLoaded, digest == null ? null : digest.wire());
        }

        @Override
        public boolean markCommitted(long rowsExtracted, long rowsLoaded) throws SQLException {
            return receipts.markCommitted(claim, rowsExtracted, rowsLoaded);
        }
    }
}
