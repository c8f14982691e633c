package io.dpone.backfill.cli;

import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.source.postgres.PostgresChunkPredicate;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyOut;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The load shape this tool replaces, for `backfill bench`: every chunk is staged and then MERGEd into the live
 * table with its indexes (PostgreSQL's INSERT ... ON CONFLICT DO UPDATE), by the same number of workers over the
 * same chunk plan. Cost grows with the live table, which is what made the incident's projection 85-95 hours.
 */
final class MergeBaseline {
    private MergeBaseline() {
    }

    /** Loads every chunk with per-chunk merges; returns the wall time in seconds. */
    static double run(ChunkPlan plan, int workers, Supplier<Connection> source, Supplier<Connection> target,
                      List<String> columns, String keyColumn) throws Exception {
        String cols = String.join(", ", columns.stream().map(c -> "\"" + c + "\"").toList());
        String updates = String.join(", ", columns.stream().filter(c -> !c.equals(keyColumn))
                .map(c -> "\"" + c + "\" = EXCLUDED.\"" + c + "\"").toList());
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        long started = System.nanoTime();
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                done.add(pool.submit(() -> {
                    try (Connection src = source.get(); Connection tgt = target.get()) {
                        for (int id = next.getAndIncrement(); id < plan.size(); id = next.getAndIncrement()) {
                            mergeChunk(plan, plan.chunk(id), src, tgt, cols, updates, keyColumn);
                        }
                    }
                    return null;
                }));
            }
            for (Future<Void> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return (System.nanoTime() - started) / 1e9;
    }

    private static void mergeChunk(ChunkPlan plan, ChunkRange chunk, Connection src, Connection tgt, String cols,
                                   String updates, String key) throws SQLException {
        tgt.setAutoCommit(false);
        try (Statement s = tgt.createStatement()) {
            s.execute("CREATE TEMP TABLE stage (LIKE public.orders) ON COMMIT DROP");
            CopyIn in = tgt.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY stage (" + cols + ") FROM STDIN");
            CopyOut out = src.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY (SELECT " + cols
                    + " FROM public.orders WHERE " + PostgresChunkPredicate.render(plan, chunk) + ") TO STDOUT");
            byte[] row;
            while ((row = out.readFromCopy()) != null) {
                in.writeToCopy(row, 0, row.length);
            }
            in.endCopy();
            s.execute("INSERT INTO public.orders (" + cols + ") SELECT " + cols + " FROM stage"
                    + " ON CONFLICT (\"" + key + "\") DO UPDATE SET " + updates);
            tgt.commit();
        } catch (SQLException | RuntimeException e) {
            tgt.rollback();
            throw e;
        } finally {
            tgt.setAutoCommit(true);
        }
    }
}
