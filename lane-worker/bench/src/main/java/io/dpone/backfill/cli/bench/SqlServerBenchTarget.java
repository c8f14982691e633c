package io.dpone.backfill.cli.bench;

import io.dpone.backfill.cli.scratch.ScratchSchema;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.source.postgres.PostgresChunkSource;
import io.dpone.backfill.targets.mssql.MssqlBulkLoad;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

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
 * A SQL Server the user names (`--target-url`): everything the bench writes lives in one scratch schema it creates,
 * names in the report and drops at the end. The live table has the reference design's shape, a clustered
 * columnstore with a nonclustered primary key; rows go in through SQLServerBulkCopy, as a lane writes them.
 */
final class SqlServerBenchTarget implements BenchTarget {
    private final ConnectionSettings server;
    private final BenchTable table;
    private final String scratch;
    private final ScratchSchema schema;

    SqlServerBenchTarget(ConnectionSettings server, BenchTable table, String scratch) throws SQLException {
        this.server = server;
        this.table = table;
        this.scratch = scratch;
        this.schema = new ScratchSchema(server, scratch);
        schema.create();
    }

    @Override
    public TargetType type() {
        return TargetType.MSSQL;
    }

    @Override
    public String describe() {
        return "SQL Server " + server.redacted() + ", scratch schema " + scratch;
    }

    @Override
    public ArmPlace place(String label) {
        return new Place(BenchTable.NAME + "_" + label);
    }

    @Override
    public void close() throws SQLException {
        schema.drop();
    }

    private Connection open() throws SQLException {
        return server.open("backfill-bench");
    }

    private final class Place implements ArmPlace {
        private final String name;
        private final String qualified;
        private final String columns;

        Place(String name) {
            this.name = name;
            this.qualified = MssqlIdentifiers.quote(scratch) + "." + MssqlIdentifiers.quote(name);
            this.columns = table.columnNames().stream().map(MssqlIdentifiers::quote).collect(Collectors.joining(", "));
        }

        @Override
        public String table() {
            return name;
        }

        @Override
        public String schema() {
            return scratch;
        }

        @Override
        public String stateSchema() {
            return scratch;
        }

        @Override
        public ConnectionSettings settings() {
            return server;
        }

        @Override
        public Connection connect() throws SQLException {
            return open();
        }

        @Override
        public void createBareTable() throws SQLException {
            execute(table.sqlServerDdl(qualified),
                    "CREATE CLUSTERED COLUMNSTORE INDEX " + MssqlIdentifiers.quote(name + "_cci") + " ON " + qualified);
        }

        @Override
        public void buildIndexes(Connection target) throws SQLException {
            try (Statement s = target.createStatement()) {
                s.execute("ALTER TABLE " + qualified + " ADD CONSTRAINT " + MssqlIdentifiers.quote(name + "_pk")
                        + " PRIMARY KEY NONCLUSTERED (" + MssqlIdentifiers.quote(BenchTable.KEY) + ")");
                s.execute("CREATE NONCLUSTERED INDEX " + MssqlIdentifiers.quote(name + "_customer") + " ON " + qualified
                        + " (" + MssqlIdentifiers.quote("customer_id") + ")");
            }
        }

        /** A forward-only SELECT of the whole table, each value read as the driver's own Java value and dropped. */
        @Override
        public double rawReadSeconds() throws SQLException {
            try (Connection c = connect(); java.sql.PreparedStatement ps = c.prepareStatement("SELECT " + columns
                    + " FROM " + qualified, java.sql.ResultSet.TYPE_FORWARD_ONLY, java.sql.ResultSet.CONCUR_READ_ONLY)) {
                long started = System.nanoTime();
                ps.setFetchSize(1000);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int i = 1; i <= n; i++) {
                            rs.getObject(i);
                        }
                    }
                }
                return (System.nanoTime() - started) / 1e9;
            }
        }

        /** The source's binary COPY decoded as it streams and bulk-copied: what a lane does, without the ledger. */
        @Override
        public RangeLoader pipe(Connection source, SourceReads reads, Connection target) throws SQLException {
            PostgresChunkSource chunks = reads.chunkSource(source, table.columnNames());
            MssqlBulkLoad bulk = MssqlBulkLoad.bind(reads.table(source), target, scratch, name,
                    table.columnNames(), List.of(BenchTable.KEY));
            return range -> {
                try (ChunkRows rows = chunks.open(range, RowEncoding.VALUES)) {
                    return bulk.write(rows);
                }
            };
        }

        /** A staging table per worker, bulk-loaded per chunk and MERGEd into the live columnstore table. */
        @Override
        public RangeLoader stagedUpsert(Connection source, SourceReads reads, Connection target, int worker) throws SQLException {
            String stageName = name + "_stage_" + worker;
            String stage = MssqlIdentifiers.quote(scratch) + "." + MssqlIdentifiers.quote(stageName);
            execute(table.sqlServerDdl(stage));
            PostgresChunkSource chunks = reads.chunkSource(source, table.columnNames());
            MssqlBulkLoad bulk = MssqlBulkLoad.bind(reads.table(source), target, scratch, stageName,
                    table.columnNames(), List.of(BenchTable.KEY));
            String merge = merge(stage);
            return range -> {
                target.setAutoCommit(false);
                try (Statement s = target.createStatement(); ChunkRows rows = chunks.open(range, RowEncoding.VALUES)) {
                    bulk.write(rows);
                    long merged = s.executeUpdate(merge);
                    s.execute("TRUNCATE TABLE " + stage);
                    target.commit();
                    return merged;
                } catch (Exception e) {
                    target.rollback();
                    throw e;
                } finally {
                    target.setAutoCommit(true);
                }
            };
        }

        String merge(String stage) {
            String key = MssqlIdentifiers.quote(BenchTable.KEY);
            List<String> names = table.columnNames().stream().map(MssqlIdentifiers::quote).toList();
            return "MERGE " + qualified + " WITH (HOLDLOCK) AS t USING " + stage + " AS s ON t." + key + " = s." + key
                    + " WHEN MATCHED THEN UPDATE SET " + names.stream().filter(c -> !c.equals(key))
                    .map(c -> "t." + c + " = s." + c).collect(Collectors.joining(", "))
                    + " WHEN NOT MATCHED BY TARGET THEN INSERT (" + columns + ") VALUES ("
                    + names.stream().map(c -> "s." + c).collect(Collectors.joining(", ")) + ");";
        }

        @Override
        public long count() throws SQLException {
            try (Connection c = connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT_BIG(*) FROM " + qualified)) {
                rs.next();
                return rs.getLong(1);
            }
        }

        /** Bytes written to the database's log files (sys.dm_io_virtual_file_stats; needs VIEW SERVER STATE). */
        @Override
        public OptionalLong logBytesWritten() {
            try (Connection c = connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT SUM(v.num_of_bytes_written) FROM sys.dm_io_virtual_file_stats(DB_ID(), NULL) v"
                         + " JOIN sys.database_files f ON f.file_id = v.file_id WHERE f.type = 1")) {
                return rs.next() && rs.getObject(1) != null ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            } catch (SQLException e) {
                return OptionalLong.empty();
            }
        }

        @Override
        public String clock() throws SQLException {
            try (Connection c = connect(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT CONVERT(nvarchar(40), SYSUTCDATETIME(), 121)")) {
                rs.next();
                return rs.getString(1);
            }
        }

        @Override
        public String campaignDetailQuery() {
            return "SELECT detail FROM " + MssqlIdentifiers.quote(scratch) + ".campaign WHERE run_key = ?";
        }

        @Override
        public List<ChunkTiming> chunkTimings(String runKey, String since) throws SQLException {
            List<ChunkTiming> timings = new ArrayList<>();
            try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT"
                    + " DATEDIFF_BIG(microsecond, CAST(? AS datetime2(7)), started_at), DATEDIFF_BIG(microsecond, CAST(? AS datetime2(7)), finished_at),"
                    + " rows_loaded FROM " + MssqlIdentifiers.quote(scratch) + ".chunk WHERE run_key = ? AND state = N'committed'"
                    + " ORDER BY finished_at")) {
                ps.setString(1, since);
                ps.setString(2, since);
                ps.setString(3, runKey);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        timings.add(new ChunkTiming(rs.getLong(1) / 1e6, rs.getLong(2) / 1e6, rs.getLong(3)));
                    }
                }
            }
            return timings;
        }

        /** Drops the run's tables: the live one, its stages, and the campaign's shadow and backup (all named after it). */
        @Override
        public void close() throws SQLException {
            schema.dropTablesNamedLike(name);
        }

        private void execute(String... statements) throws SQLException {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                for (String sql : statements) {
                    s.execute(sql);
                }
            }
        }
    }
}
