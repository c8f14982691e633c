package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.source.ChunkReader;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.postgres.PostgresBinaryCopy;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.source.postgres.binary.BinaryCopyFormatException;
import io.dpone.backfill.source.postgres.binary.BinaryCopyReader;
import io.dpone.backfill.source.postgres.binary.CopyOutInputStream;
import io.dpone.backfill.source.postgres.binary.SourceColumnPlan;
import io.dpone.backfill.source.postgres.binary.SourceColumnPlanner;
import io.dpone.backfill.source.postgres.binary.PgType;
import io.dpone.backfill.source.postgres.digest.ColumnFamilies;
import io.dpone.backfill.source.postgres.digest.CopyRowDigests;
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
public final class PostgresChunkSource implements ChunkReader {
    private final Connection source;
    private final ChunkPlan plan;
    private final String sourceSchema;
    private final String sourceTable;
    private final List<String> columns;
    private final String selectPrefix;
    /** Null for key-range plans; physical chunks are read in their own checked transaction. */
    /** Sees every digested row; null on every lane. */
    private ContentDigester.RowObserver observer;
    private final PostgresHeapChunkGuard heapGuard;
    private SourceColumnPlan valuePlan;
    /** Positions of the key columns among the loaded columns; null when this source computes no content digest. */
    private final int[] keyPositions;
    private PgType[] copyTypes;

    public PostgresChunkSource(Connection source, ChunkPlan plan, String sourceSchema, String sourceTable, List<String> columns) {
        this(source, plan, sourceSchema, sourceTable, columns, null, null);
    }

    /**
     * {@code heap} and {@code anchorXmin}: what preparation recorded, for a physical plan (ADR 0015); both null for
     * key-range plans.
     */
    public PostgresChunkSource(Connection source, ChunkPlan plan, String sourceSchema, String sourceTable, List<String> columns,
                               HeapExtent heap, String anchorXmin) {
        this(source, plan, sourceSchema, sourceTable, columns, heap, anchorXmin, null);
    }

    /**
     * As above, and with {@code keyColumns} (the campaign's unique key, all among {@code columns}) every chunk's rows
     * also yield their content digest (ADR 0018) as they stream: {@link ChunkRows#digest()}. Null: no digest.
     */
    public PostgresChunkSource(Connection source, ChunkPlan plan, String sourceSchema, String sourceTable, List<String> columns,
                               HeapExtent heap, String anchorXmin, List<String> keyColumns) {
        this.keyPositions = keyColumns == null ? null : ContentDigester.positions(columns, keyColumns);
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

    /**
     * Lets {@code observer} see the canonical fields of every row digested from now on: to locate a difference the
     * read-back gate found (ADR 0036), never on a lane. Needs key columns.
     */
    @Override
    public PostgresChunkSource observing(ContentDigester.RowObserver observer) {
        if (keyPositions == null) {
            throw new IllegalStateException("rows are observed as they are digested: this source digests nothing");
        }
        this.observer = observer;
        return this;
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
        // The column types are read before the COPY starts: the connection serves nothing else while it runs.
        CopyRowDigests digests = encoding == RowEncoding.VALUES ? null : copyDigests();
        return switch (encoding) {
            case POSTGRES_COPY_TEXT -> new CopyTextRows(source.unwrap(PGConnection.class).getCopyAPI()
                    .copyOut(selectPrefix + predicate + ") TO STDOUT"), source.unwrap(PGConnection.class), digests);
            case POSTGRES_COPY_BINARY -> new BinaryTupleRows(source.unwrap(PGConnection.class).getCopyAPI()
                    .copyOut(selectPrefix + predicate + ") TO STDOUT (FORMAT binary)"), columns.size(), digests);
            case VALUES -> new DecodedRows(BinaryCopyReader.start(source, valuePlan(), predicate),
                    keyPositions == null ? null : new ContentDigester(columns.size(), keyPositions).observe(observer));
        };
    }

    /** A fresh digest for one chunk's COPY rows, or null; the columns' types are read once per lane, like the plan. */
    private CopyRowDigests copyDigests() throws SQLException {
        if (keyPositions == null) {
            return null;
        }
        if (copyTypes == null) {
            copyTypes = ColumnFamilies.of(source, sourceSchema, sourceTable, columns);
        }
        return new CopyRowDigests(copyTypes, new ContentDigester(columns.size(), keyPositions).observe(observer));
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
        public ChunkDigest digest() {
            return rows.digest();
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
        private final ContentDigester digester;

        DecodedRows(BinaryCopyReader reader, ContentDigester digester) {
            this.reader = reader;
            this.digester = digester;
        }

        @Override
        public boolean next() throws IOException {
            if (!reader.next()) {
                return false;
            }
            if (digester != null) {
                for (Object value : reader.row()) {
                    digester.value(value);
                }
                digester.endRow();
            }
            return true;
        }

        @Override
        public ChunkDigest digest() {
            return digester == null ? null : digester.digest();
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

    /**
     * Binary COPY tuples passed through as they come: the stream's header is cut from the first message and its
     * trailer ends the rows. Each message must hold exactly one tuple of the loaded columns (how PostgreSQL sends
     * them), checked by its field count, because rows are counted by message.
     */
    private final class BinaryTupleRows implements ChunkRows {
        private final CopyOut out;
        private final int columns;
        private final CopyRowDigests digests;
        private boolean first = true;
        private boolean ended;
        private byte[] row;
        private long tuples;

        BinaryTupleRows(CopyOut out, int columns, CopyRowDigests digests) {
            this.out = out;
            this.columns = columns;
            this.digests = digests;
        }

        @Override
        public ChunkDigest digest() {
            return digests == null ? null : digests.digester().digest();
        }

        @Override
        public boolean next() throws SQLException, BinaryCopyFormatException {
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
            if (digests != null) {
                digests.binaryRow(message, offset);
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
