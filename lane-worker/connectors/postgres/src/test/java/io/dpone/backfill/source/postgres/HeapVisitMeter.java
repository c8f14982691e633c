package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Function;

/**
 * Counts the heap pages a table's chunks really visit: every chunk read through the lanes' own reader (the same COPY
 * and predicate), on one session, then the table's {@code heap_blks_read + heap_blks_hit} from
 * {@code pg_statio_user_tables} before and after. Those count each request for a heap page of the table (from disk or
 * shared buffers; index and TOAST pages are counted apart), across parallel workers too. A backend reports its counts
 * when it exits, before it leaves {@code pg_stat_activity}, so the meter first waits for every other session of the
 * database to be gone (their reads, e.g. a row estimate's sample, belong before the count) and then for its own.
 */
final class HeapVisitMeter {
    private final PostgresDatabase db;
    private final String table;

    HeapVisitMeter(PostgresDatabase db, String table) {
        this.db = db;
        this.table = table;
    }

    /** Heap page requests while every chunk of {@code chunks} is read to its end by the reader the session gets. */
    long visits(Iterable<ChunkRange> chunks, Function<Connection, PostgresChunkSource> reader) throws Exception {
        awaitExit("datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'");
        long before = counted();
        int pid;
        try (Connection session = db.connect()) {
            pid = pid(session);
            PostgresChunkSource source = reader.apply(session);
            for (ChunkRange chunk : chunks) {
                try (ChunkRows rows = source.open(chunk, RowEncoding.POSTGRES_COPY_TEXT)) {
                    while (rows.next()) {
                        // drained: the pages are visited as the COPY streams
                    }
                }
            }
        }
        awaitExit("pid = " + pid);
        return counted() - before;
    }

    private long counted() throws SQLException {
        return db.queryForLong("SELECT coalesce(heap_blks_read, 0) + coalesce(heap_blks_hit, 0)"
                + " FROM pg_statio_user_tables WHERE relid = 'public." + table + "'::regclass");
    }

    private static int pid(Connection session) throws SQLException {
        try (Statement s = session.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** Waits until no backend matches {@code which}, a condition on {@code pg_stat_activity}. */
    private void awaitExit(String which) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (db.queryForLong("SELECT count(*) FROM pg_stat_activity WHERE " + which) > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("backends where " + which + " did not exit within 30 s");
            }
            Thread.sleep(20);
        }
    }
}
