package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.lane.ChunkSource;
import io.dpone.backfill.core.lane.RowEncoding;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A chunk's rows from the PostgreSQL source: {@code COPY (SELECT <load columns> FROM source WHERE <chunk
 * predicate>) TO STDOUT}, one CopyData message (one text row) at a time, on the lane's source connection.
 */
public final class PostgresChunkSource implements ChunkSource {
    private final Connection source;
    private final ChunkPlan plan;
    private final String selectPrefix;

    public PostgresChunkSource(Connection source, ChunkPlan plan, String sourceSchema, String sourceTable, List<String> columns) {
        this.source = source;
        this.plan = plan;
        String columnList = columns.stream().map(PostgresIdentifiers::quote).collect(Collectors.joining(", "));
        this.selectPrefix = "COPY (SELECT " + columnList + " FROM " + PostgresIdentifiers.qualified(sourceSchema, sourceTable) + " WHERE ";
    }

    @Override
    public ChunkRows open(ChunkRange range, RowEncoding encoding) throws SQLException {
        if (encoding != RowEncoding.POSTGRES_COPY_TEXT) {
            throw new IllegalArgumentException("the PostgreSQL source does not produce " + encoding + " yet");
        }
        String select = selectPrefix + PostgresChunkPredicate.render(plan, range) + ") TO STDOUT";
        return new CopyRows(source.unwrap(PGConnection.class).getCopyAPI().copyOut(select));
    }

    private static final class CopyRows implements ChunkRows {
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

        /** An unfinished COPY must be cancelled, or the source connection stays in copy mode. */
        @Override
        public void close() throws SQLException {
            if (out.isActive()) {
                out.cancelCopy();
            }
        }
    }
}
