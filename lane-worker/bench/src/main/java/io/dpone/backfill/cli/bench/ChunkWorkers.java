package io.dpone.backfill.cli.bench;

import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The chunked arms' workers: {@code workers} threads, each with its own source and target connection, taking the
 * plan's chunks in order, like lanes do, and timing each chunk from its start to its commit.
 */
final class ChunkWorkers {
    /** Builds a worker's loader over its own connections. */
    @FunctionalInterface
    interface LoaderFactory {
        RangeLoader open(Connection source, Connection target, int worker) throws Exception;
    }

    private ChunkWorkers() {
    }

    static List<ChunkTiming> run(ArmContext context, ArmPlace place, ChunkPlan plan, LoaderFactory loaders) throws Exception {
        AtomicInteger next = new AtomicInteger();
        List<ChunkTiming> timings = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(context.lanes());
        long started = System.nanoTime();
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (int w = 0; w < context.lanes(); w++) {
                int worker = w;
                done.add(pool.submit(() -> {
                    try (Connection source = context.source().connect(); Connection target = place.connect()) {
                        RangeLoader loader = loaders.open(source, target, worker);
                        for (int id = next.getAndIncrement(); id < plan.size(); id = next.getAndIncrement()) {
                            ChunkRange range = plan.chunk(id);
                            double start = (System.nanoTime() - started) / 1e9;
                            long rows = loader.load(range);
                            timings.add(new ChunkTiming(start, (System.nanoTime() - started) / 1e9, rows));
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
        List<ChunkTiming> sorted = new ArrayList<>(timings);
        sorted.sort((a, b) -> Double.compare(a.endSeconds(), b.endSeconds()));
        return sorted;
    }
}
