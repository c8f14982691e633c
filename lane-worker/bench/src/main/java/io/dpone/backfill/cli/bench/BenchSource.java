package io.dpone.backfill.cli.bench;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.pgembedded.EmbeddedPostgres;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.source.SourceReadCost;
import io.dpone.backfill.postgres.PostgresEndpoint;
import io.dpone.backfill.source.postgres.PostgresHeapState;
import io.dpone.backfill.source.postgres.PostgresSourceCatalog;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The source: an embedded PostgreSQL 17 holding the generated table, vacuumed once so every arm finds the same
 * heap (hint bits set, visibility map built). It counts the heap pages each arm visits from pg_statio_user_tables.
 */
final class BenchSource implements AutoCloseable {
    static final String DATABASE = "bench_source";
    private static final long BATCH = 1_000_000;

    private final EmbeddedPostgres cluster;
    private final BenchTable table;

    BenchSource(BenchTable table) {
        this.table = table;
        this.cluster = EmbeddedPostgres.start();
        cluster.createDatabase(DATABASE);
    }

    /** Generates {@code rows} rows in batches (one transaction each) and vacuums the table. */
    void generate(long rows) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(table.postgresDdl("public." + BenchTable.NAME));
            for (long from = 1; from <= rows; from += BATCH) {
                s.execute(table.generate("public." + BenchTable.NAME, from, Math.min(rows, from + BATCH - 1)));
            }
            s.execute("VACUUM (ANALYZE, FREEZE) public." + BenchTable.NAME);
        }
    }

    ConnectionSettings settings() {
        return new ConnectionSettings(cluster.jdbcUrl(DATABASE), null, null, PostgresEndpoint.INSTANCE);
    }

    Connection connect() throws SQLException {
        return cluster.connect(DATABASE);
    }

    long tablePages() throws SQLException {
        return cluster.queryForLong(DATABASE, "SELECT pg_relation_size('public." + BenchTable.NAME + "') / current_setting('block_size')::bigint");
    }

    /** The heap's size and storage identity, as a campaign's preparation records them for physical chunks. */
    HeapExtent heapExtent() throws SQLException {
        try (Connection c = connect()) {
            return PostgresHeapState.read(c, "public", BenchTable.NAME).orElseThrow().extent();
        }
    }

    /** The heap page visits the source predicts for {@code plan}'s chunks (ADR 0055), as doctor and plan show them. */
    SourceReadCost predictedReads(ChunkPlan plan) throws SQLException {
        try (Connection c = connect()) {
            return new PostgresSourceCatalog(c).readCost("public", BenchTable.NAME, plan);
        }
    }

    /** An XMin anchor taken after generation: every generated row is older than it. */
    String anchor() throws SQLException {
        return cluster.queryForString(DATABASE, "SELECT pg_snapshot_xmin(pg_current_snapshot())::text");
    }

    long tableBytes() throws SQLException {
        return cluster.queryForLong(DATABASE, "SELECT pg_table_size('public." + BenchTable.NAME + "')");
    }

    /**
     * Heap pages read or found in shared buffers for the table so far. A backend reports its counts when it exits,
     * so this first waits for every other session on the source to be gone.
     */
    long heapPagesVisited() throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (cluster.queryForLong(DATABASE, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND pid <> pg_backend_pid() AND backend_type = 'client backend'") > 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        return cluster.queryForLong(DATABASE, "SELECT coalesce(heap_blks_read, 0) + coalesce(heap_blks_hit, 0)"
                + " FROM pg_statio_user_tables WHERE relid = 'public." + BenchTable.NAME + "'::regclass");
    }

    @Override
    public void close() {
        cluster.close();
    }
}
