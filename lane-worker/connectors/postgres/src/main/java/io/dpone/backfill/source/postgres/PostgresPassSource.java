package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.reconcile.RangeBuckets;
import io.dpone.backfill.core.reconcile.PassSource;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.postgres.PostgresKeyText;
import io.dpone.backfill.source.ChunkReading;
import org.postgresql.PGConnection;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The PostgreSQL source of one reconciliation pass (issue 38): one REPEATABLE READ transaction held for the whole
 * pass, so every range is read under the same snapshot, whose {@code pg_snapshot_xmin} is the pass's anchor, in the
 * handoff's terms. Rows are written "since" an anchor when their xmin is at or after it, compared by {@code age()}
 * (32-bit, wraparound-safe within two billion transactions); frozen rows keep their raw xmin and read as old.
 */
public final class PostgresPassSource implements PassSource {
    private final Connection source;
    private final PostgresJdbc jdbc;
    private final ChunkReading reading;
    private final List<String> keyColumns;
    private final String columnList;
    private final boolean autoCommit;
    private final String anchor;
    private final PostgresKeyText keyText;

    private PostgresPassSource(Connection source, ChunkReading reading, List<String> keyColumns) throws SQLException {
        this.source = source;
        this.jdbc = new PostgresJdbc(source);
        this.reading = reading;
        this.keyColumns = List.copyOf(keyColumns);
        this.columnList = reading.columns().stream().map(PostgresIdentifiers::quote).collect(Collectors.joining(", "));
        this.autoCommit = source.getAutoCommit();
        source.setAutoCommit(false);
        source.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        // The first query takes the snapshot every later read of the pass sees.
        this.anchor = jdbc.one("SELECT pg_catalog.pg_snapshot_xmin(pg_catalog.pg_current_snapshot())::text AS a",
                rs -> rs.getString("a")).orElseThrow();
        this.keyText = PostgresKeyText.of(jdbc, table(), keyColumns);
    }

    /** Begins the pass's snapshot on {@code source}, which the pass then holds until {@link #close()}. */
    public static PostgresPassSource begin(Connection source, ChunkReading reading, List<String> keyColumns) throws SQLException {
        return new PostgresPassSource(source, reading, keyColumns);
    }

    @Override
    public String anchor() {
        return anchor;
    }

    private String table() {
        return PostgresIdentifiers.qualified(reading.schema(), reading.table());
    }

    private String rangeNumber() {
        return PostgresChunkPredicate.rangeNumber(reading.plan(), reading.plan().kind().keyed()
                ? "s." + PostgresIdentifiers.quote(reading.plan().column()) : null);
    }

    @Override
    public ChunkRows changedRows(String since, List<String> acceptedKeys) throws SQLException {
        // COPY takes no parameters: the anchor is digits only, the accepted keys are quoted by the server itself.
        if (!since.matches("[0-9]+")) {
            throw new IllegalArgumentException("an anchor is a transaction id, got '" + since + "'");
        }
        String sinceXid = "((" + since + "::numeric % 4294967296)::text)::xid";
        String written = "pg_catalog.age(xmin) <= pg_catalog.age(" + sinceXid + ")";
        if (!acceptedKeys.isEmpty()) {
            String keys = jdbc.one("SELECT pg_catalog.quote_literal(?::text[]) AS q", rs -> rs.getString("q"),
                    source.createArrayOf("text", acceptedKeys.toArray())).orElseThrow();
            written = "(" + written + " OR " + keyText.text(null) + " = ANY(" + keys + "::text[]))";
        }
        return copy("COPY (SELECT " + columnList + " FROM " + table() + " WHERE " + written + ") TO STDOUT");
    }

    @Override
    public ChunkRows keyDigests(List<ChunkRange> ranges) throws SQLException {
        requirePlanOf(ranges);
        return copy("COPY (" + keyText.digests(table(), "s", rangeNumber()) + ") TO STDOUT");
    }

    @Override
    public ChunkRows keys(List<ChunkRange> ranges, RangeBuckets buckets) throws SQLException {
        requirePlanOf(ranges);
        String keys = keyColumns.stream().map(c -> "s." + PostgresIdentifiers.quote(c)).collect(Collectors.joining(", "));
        return copy("COPY (SELECT " + rangeNumber() + ", " + keys + " FROM " + table() + " s WHERE "
                + PostgresKeyText.inPairs(keyText.pair(rangeNumber(), "s"), buckets, ranges.size())
                + ") TO STDOUT");
    }

    /** The pass numbers ranges as the plan lists them; a list of another plan would misplace every key. */
    private void requirePlanOf(List<ChunkRange> ranges) {
        int expected = reading.plan().kind().keyed() ? reading.plan().chunks().size() : 1;
        if (ranges.size() != expected) {
            throw new IllegalArgumentException("a pass over this plan has " + expected + " range(s), not " + ranges.size());
        }
    }

    private ChunkRows copy(String sql) throws SQLException {
        PGConnection pg = source.unwrap(PGConnection.class);
        return new CopyTextRows(pg.getCopyAPI().copyOut(sql), pg, null);
    }

    @Override
    public void close() throws SQLException {
        try {
            source.rollback();
        } finally {
            source.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            source.setAutoCommit(autoCommit);
        }
    }
}
