package io.dpone.backfill.cli.bench;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.StateSpec;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.pgembedded.EmbeddedPostgres;
import io.dpone.backfill.postgres.PostgresEndpoint;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyOut;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * An embedded PostgreSQL cluster of its own for the target, apart from the source's, so the WAL it writes is the
 * load's alone. Each arm run gets a fresh database, dropped when the run is measured.
 */
final class PostgresBenchTarget implements BenchTarget {
    private final EmbeddedPostgres cluster;
    private final BenchTable table;

    PostgresBenchTarget(BenchTable table) {
        this.table = table;
        this.cluster = EmbeddedPostgres.start();
    }

    @Override
    public TargetType type() {
        return TargetType.POSTGRES;
    }

    @Override
    public String describe() {
        return "embedded PostgreSQL 17 on 127.0.0.1:" + cluster.port() + " (a cluster apart from the source's)";
    }

    @Override
    public ArmPlace place(String label) {
        String database = "bench_" + label;
        cluster.createDatabase(database);
        return new Place(database);
    }

    @Override
    public void close() {
        cluster.close();
    }

    private final class Place implements ArmPlace {
        private final String database;
        private final String qualified = "public." + BenchTable.NAME;
        private final String columns;

        Place(String database) {
            this.database = database;
            this.columns = String.join(", ", table.columnNames());
        }

        @Override
        public String table() {
            return BenchTable.NAME;
        }

        @Override
        public String schema() {
            return "public";
        }

        @Override
        public String stateSchema() {
            return StateSpec.DEFAULT_SCHEMA;
        }

        @Override
        public ConnectionSettings settings() {
            return new ConnectionSettings(cluster.jdbcUrl(database), null, null, PostgresEndpoint.INSTANCE);
        }

        @Override
        public Connection connect() throws SQLException {
            return cluster.connect(database);
        }

        @Override
        public void createBareTable() throws SQLException {
            cluster.execute(database, table.postgresDdl(qualified));
        }

        @Override
        public void buildIndexes(Connection target) throws SQLException {
            try (Statement s = target.createStatement()) {
                s.execute("ALTER TABLE " + qualified + " ADD PRIMARY KEY (" + BenchTable.KEY + ")");
                s.execute("CREATE INDEX ON " + qualified + " (customer_id)");
            }
        }

        /** Binary COPY of the whole table to the client, each message read and dropped. */
        @Override
        public double rawReadSeconds() throws SQLException {
            try (Connection c = connect()) {
                long started = System.nanoTime();
                CopyOut out = c.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY (SELECT " + columns + " FROM "
                        + qualified + ") TO STDOUT (FORMAT binary)");
                while (out.readFromCopy() != null) {
                    // the bytes cross the wire and are dropped
                }
                return (System.nanoTime() - started) / 1e9;
            }
        }

        /** Binary COPY bytes passed through unchanged: the physical floor of moving rows between two servers. */
        @Override
        public RangeLoader pipe(Connection source, SourceReads reads, Connection target) {
            return range -> binaryCopy(source, reads.predicate(range), target, qualified);
        }

        /** A temporary staging table per chunk, then INSERT ... ON CONFLICT DO UPDATE: PostgreSQL's MERGE of a chunk. */
        @Override
        public RangeLoader stagedUpsert(Connection source, SourceReads reads, Connection target, int worker) {
            String updates = table.columnNames().stream().filter(c -> !c.equals(BenchTable.KEY))
                    .map(c -> c + " = EXCLUDED." + c).collect(Collectors.joining(", "));
            return range -> {
                target.setAutoCommit(false);
                try (Statement s = target.createStatement()) {
                    s.execute("CREATE TEMP TABLE stage (LIKE " + qualified + ") ON COMMIT DROP");
                    binaryCopy(source, reads.predicate(range), target, "stage");
                    long rows = s.executeUpdate("INSERT INTO " + qualified + " (" + columns + ") SELECT " + columns
                            + " FROM stage ON CONFLICT (" + BenchTable.KEY + ") DO UPDATE SET " + updates);
                    target.commit();
                    return rows;
                } catch (SQLException | RuntimeException e) {
                    target.rollback();
                    throw e;
                } finally {
                    target.setAutoCommit(true);
                }
            };
        }

        /** The source rows matching {@code predicate} into {@code destination}, as binary COPY bytes; returns the rows. */
        private long binaryCopy(Connection source, String predicate, Connection target, String destination) throws SQLException {
            CopyOut out = source.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY (SELECT " + columns
                    + " FROM public." + BenchTable.NAME + " WHERE " + predicate + ") TO STDOUT (FORMAT binary)");
            CopyIn in = target.unwrap(PGConnection.class).getCopyAPI()
                    .copyIn("COPY " + destination + " (" + columns + ") FROM STDIN (FORMAT binary)");
            byte[] bytes;
            while ((bytes = out.readFromCopy()) != null) {
                in.writeToCopy(bytes, 0, bytes.length);
            }
            return in.endCopy();
        }

        @Override
        public long count() throws SQLException {
            return cluster.queryForLong(database, "SELECT count(*) FROM " + qualified);
        }

        @Override
        public OptionalLong logBytesWritten() {
            try {
                return OptionalLong.of(cluster.queryForLong("postgres", "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint"));
            } catch (SQLException e) {
                return OptionalLong.empty();
            }
        }

        @Override
        public boolean reconcilable() {
            return true;
        }

        @Override
        public String clock() throws SQLException {
            return cluster.queryForString(database, "SELECT clock_timestamp()::text");
        }

        @Override
        public String campaignDetailQuery() {
            return "SELECT detail FROM " + StateSpec.DEFAULT_SCHEMA + ".campaign WHERE run_key = ?";
        }

        @Override
        public List<ChunkTiming> chunkTimings(String runKey, String since) throws SQLException {
            List<ChunkTiming> timings = new ArrayList<>();
            try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT"
                    + " extract(epoch FROM started_at - ?::timestamptz)::float8, extract(epoch FROM finished_at - ?::timestamptz)::float8,"
                    + " rows_loaded FROM " + StateSpec.DEFAULT_SCHEMA + ".chunk WHERE run_key = ? AND state = 'committed'"
                    + " ORDER BY finished_at")) {
                ps.setString(1, since);
                ps.setString(2, since);
                ps.setString(3, runKey);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        timings.add(new ChunkTiming(rs.getDouble(1), rs.getDouble(2), rs.getLong(3)));
                    }
                }
            }
            return timings;
        }

        @Override
        public void close() throws SQLException {
            cluster.execute("postgres", "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }
}
