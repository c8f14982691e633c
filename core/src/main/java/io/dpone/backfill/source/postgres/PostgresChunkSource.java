package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.lane.ChunkSource;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.postgres.PostgresBinaryCopy;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.source.postgres.binary.BinaryCopyReader;
import io.dpone.backfill.source.postgres.binary.CopyOutInputStream;
import io.dpone.backfill.source.postgres.binary.SourceColumnPlan;
import io.dpone.backfill.source.postgres.binary.SourceColumnPlanner;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A chunk's rows from the PostgreSQL source, on the lane's source connection: {@code COPY (SELECT <load columns>
 * FROM source WHERE <chunk predicate>) TO STDOUT} passed through as text rows, or the same in binary format decoded
 * into values as it streams (for a sink that writes values). A physical chunk (block range) is read inside a
 * transaction {@link PostgresHeapChunkGuard} opens and checks.
 */
public final class PostgresChunkSource implements ChunkSource {
    private final Connection source;
    private final ChunkPlan plan;
    private final String sourceSchema;
    private final String sourceTable;
    private final List<String> columns;
    private final String selectPrefix;
    /** Null for key-range plans; physical chunks are read in their own checked transaction. */
    private final PostgresHeapChunkGuard heapGuard;
    private SourceColumnPlan valuePlan;

    public PostgresChunkSource(Connection source, ChunkPlan plan, String sourceSchema, String sourceTable, List<String> columns) {
        this(source, plan, sourceSchema, sourceTable, columns, null, null);
    }

    /**
     * {@code heap} and {@code anchorXmin}: what preparation recorded, for a physical plan (ADR 0015); both null for
     * key-range plans.
     */
    public PostgresChunkSource(Connection source, ChunkPlan plan, String sourceSchema, String sourceTable, List<String> columns,
                               HeapExtent heap, String anchorXmin) {
        if (plan.kind() == ChunkKind.PHYSICAL && (heap == null || anchorXmin == null || !plan.resolved())) {
            throw new IllegalArgumentException("a physical plan is read only with the heap extent and XMin anchor"
                    + " recorded at preparation");
        }
        this.heapGuard = plan.kind() == ChunkKind.PHYSICAL
                ? new PostgresHeapChunkGuard(sourceSchema, sourceTable, heap, anchorXmin) : null;
        this.source = source;
        this.plan = plan;
        this.sourceSchema = sourceSchema;
        this.sourceTable = sourceTable;
        this.columns = List.copyOf(columns);
        String columnList = columns.stream().map(PostgresIdentifiers::quote).collect(Collectors.joining(", "));
        this.selectPrefix = "COPY (SELECT " + columnList + " FROM " + PostgresIdentifiers.qualified(sourceSchema, sourceTable) + " WHERE ";
    }

    @Override
    public ChunkRows open(ChunkRange range, RowEncoding encoding) throws SQLException {
        if (heapGuard == null) {
            return copy(PostgresChunkPredicate.render(plan, range), encoding);
        }
        heapGuard.begin(source);
        try {
            return new InHeapTransaction(copy(PostgresHeapPredicate.render(range, heapGuard.anchor()), encoding));
        } catch (SQLException | RuntimeException e) {
            heapGuard.end(source);
            throw e;
        }
    }

    private ChunkRows copy(String predicate, RowEncoding encoding) throws SQLException {
        return switch (encoding) {
            case POSTGRES_COPY_TEXT -> new CopyRows(source.unwrap(PGConnection.class).getCopyAPI()
                    .copyOut(selectPrefix + predicate + ") TO STDOUT"));
            case POSTGRES_COPY_BINARY -> new BinaryTupleRows(source.unwrap(PGConnection.class).getCopyAPI()
                    .copyOut(selectPrefix + predicate + ") TO STDOUT (FORMAT binary)"), columns.size());
            case VALUES -> new DecodedRows(BinaryCopyReader.start(source, valuePlan(), predicate));
        };
    }

    /** The columns' types are read once per lane: a type change mid-campaign is drift, caught before each chunk. */
    private SourceColumnPlan valuePlan() throws SQLException {
        if (valuePlan == null) {
            valuePlan = new SourceColumnPlanner(source).plan(sourceSchema, sourceTable, columns);
        }
        return valuePlan;
    }

    /** A physical chunk's rows; closing them ends the chunk's source transaction after the COPY is drained. */
    private final class InHeapTransaction implements ChunkRows {
        private final ChunkRows rows;

        InHeapTransaction(ChunkRows rows) {
            this.rows = rows;
        }

        @Override
        public boolean next() throws Exception {
            return rows.next();
        }

        @Override
        public byte[] copyBytes() {
            return rows.copyBytes();
        }

        @Override
        public Object[] values() {
            return rows.values();
        }

        @Override
        public void close() throws Exception {
            try {
                rows.close();
            } finally {
                heapGuard.end(source);
            }
        }
    }

    /** Binary COPY rows decoded as they stream; closing early cancels the COPY and drains it. */
    private static final class DecodedRows implements ChunkRows {
        private final BinaryCopyReader reader;

        DecodedRows(BinaryCopyReader reader) {
            this.reader = reader;
        }

        @Override
        public boolean next() throws IOException {
            return reader.next();
        }

        @Override
        public byte[] copyBytes() {
            throw new UnsupportedOperationException("decoded rows carry values, not COPY bytes");
        }

        @Override
        public Object[] values() {
            return reader.row();
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }

    private final class CopyRows implements ChunkRows {
        private final CopyOut out;
        private byte[] row;

        CopyRows(CopyOut out) {
            this.out = out;
        }

        @Override
        public boolean next() throws SQLException {
            row = out.readFromCopy();
            return row != null;
        }

        @Override
        public byte[] copyBytes() {
            return row;
        }

        /**
         * An unfinished COPY is cancelled on the server and drained, so the lane's source connection serves the
         * next chunk (pgjdbc's own cancelCopy leaves the COPY's rest on the socket).
         */
        @Override
        public void close() throws IOException, SQLException {
            new CopyOutInputStream(out, source.unwrap(PGConnection.class)).close();
        }
    }

    /**
     * Binary COPY tuples passed through as they come: the stream's header is cut from the first message and its
     * trailer ends the rows. Each message must hold exactly one tuple of the loaded columns (how PostgreSQL sends
     * them), checked by its field count, because rows are counted by message.
     */
    private final class BinaryTupleRows implements ChunkRows {
        private final CopyOut out;
        private final int columns;
        private boolean first = true;
        private boolean ended;
        private byte[] row;
        private long tuples;

        BinaryTupleRows(CopyOut out, int columns) {
            this.out = out;
            this.columns = columns;
        }

        @Override
        public boolean next() throws SQLException {
            if (ended) {
                return false;
            }
            byte[] message = out.readFromCopy();
            if (message == null) {
                throw new IllegalStateException("the source's binary COPY ended without its trailer");
            }
            int offset = 0;
            if (first) {
                first = false;
                offset = PostgresBinaryCopy.headerLength(message);
            }
            int fields = PostgresBinaryCopy.fieldCount(message, offset);
            if (fields == -1) {
                ended = true;
                row = null;
                // The server's CopyDone follows the trailer; reading it ends the COPY cleanly.
                if (out.readFromCopy() != null) {
                    throw new IllegalStateException("the source's binary COPY sent data after its trailer");
                }
                if (out.getHandledRowCount() != tuples) {
                    throw new IllegalStateException("the source's binary COPY reports " + out.getHandledRowCount()
                            + " rows but sent " + tuples + " tuple messages");
                }
                return false;
            }
            if (fields != columns) {
                throw new IllegalStateException("binary COPY tuple has " + fields + " fields, the load has " + columns + " columns");
            }
            row = offset == 0 ? message : Arrays.copyOfRange(message, offset, message.length);
            tuples++;
            return true;
        }

        @Override
        public byte[] copyBytes() {
            return row;
        }

        /** Drains the stream (a finished one has nothing left) or cancels an unfinished one, as for text rows. */
        @Override
        public void close() throws IOException, SQLException {
            new CopyOutInputStream(out, source.unwrap(PGConnection.class)).close();
        }
    }
}
