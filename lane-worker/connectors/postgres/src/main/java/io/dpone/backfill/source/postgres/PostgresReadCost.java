package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.source.ChunkRowEstimates;
import io.dpone.backfill.core.source.SourceReadCost;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Predicts the heap pages a campaign's chunks visit on the PostgreSQL source (issue 41, ADR 0055), reading only
 * what the server already knows: the table's pages and tuples, the chunk column's correlation with the heap order,
 * each chunk's estimated rows (the ETA's estimates), and the scan the server plans for a few evenly spaced chunks'
 * queries ({@code EXPLAIN}, never executed). Each chunk is priced with the scan of the nearest sampled chunk by
 * {@link PageVisits}.
 */
final class PostgresReadCost {
    /** Chunks whose query is explained; a plan's chunks differ in bounds, rarely in the scan the server picks. */
    static final int SAMPLED_CHUNKS = 8;

    private final Connection source;

    PostgresReadCost(Connection source) {
        this.source = source;
    }

    SourceReadCost estimate(String schema, String table, ChunkPlan plan) throws SQLException {
        Optional<HeapStatistics> read = HeapStatistics.read(source, schema, table, plan.column());
        if (read.isEmpty()) {
            return SourceReadCost.unknown("source table " + schema + "." + table + " does not exist");
        }
        HeapStatistics heap = read.get();
        boolean physical = plan.kind() == ChunkKind.PHYSICAL;
        if (!physical && (!heap.analyzed() || heap.correlation() == null)) {
            return SourceReadCost.unknown("PostgreSQL has no statistics of " + plan.column() + " in " + schema + "."
                    + table + " (run ANALYZE " + schema + "." + table + ")");
        }
        ChunkPlan chunks = physical && !plan.resolved() ? ChunkPlanner.physical(plan.size(), heap.pages()) : plan;
        HeapScan[] sampled = sampleScans(schema, table, chunks);
        double[] rows = physical ? null : rowsPerChunk(schema, table, chunks, heap);
        double total = 0;
        double largest = 0;
        for (ChunkRange chunk : chunks.chunks()) {
            HeapScan scan = sampled[nearestSample(chunk.id(), chunks.size(), sampled.length)];
            double pages = physical ? PageVisits.blockRange(scan, blocks(chunk, heap), heap)
                    : PageVisits.keyRange(scan, rows[chunk.id()], heap);
            total += pages;
            largest = Math.max(largest, pages);
        }
        return new SourceReadCost(heap.pages(), Math.round(total), chunks.size(), Math.round(largest),
                reason(chunks, heap, sampled));
    }

    private HeapScan[] sampleScans(String schema, String table, ChunkPlan chunks) throws SQLException {
        PostgresScanChoice choice = new PostgresScanChoice(source, schema, table);
        int samples = Math.min(SAMPLED_CHUNKS, chunks.size());
        HeapScan[] scans = new HeapScan[samples];
        for (int s = 0; s < samples; s++) {
            ChunkRange chunk = chunks.chunk(samples == 1 ? chunks.size() / 2 : s * (chunks.size() - 1) / (samples - 1));
            scans[s] = choice.of(chunks.kind() == ChunkKind.PHYSICAL ? PostgresHeapPredicate.blocks(chunk)
                    : PostgresChunkPredicate.render(chunks, chunk));
        }
        return scans;
    }

    private static int nearestSample(int chunk, int chunks, int samples) {
        return samples == 1 ? 0 : (int) Math.round((double) chunk * (samples - 1) / (chunks - 1));
    }

    /** Each chunk's estimated rows, or the table's tuples shared equally when there is no estimate. */
    private double[] rowsPerChunk(String schema, String table, ChunkPlan chunks, HeapStatistics heap) throws SQLException {
        ChunkRowEstimates estimates = new PostgresRowEstimator(source).estimate(schema, table, chunks);
        double[] rows = new double[chunks.size()];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = estimates.rows().size() == rows.length ? estimates.rows().get(i) : heap.tuples() / rows.length;
        }
        return rows;
    }

    /** A block range's pages; the last one reaches the heap's end as it is now. */
    private static long blocks(ChunkRange chunk, HeapStatistics heap) {
        long lower = chunk.lowerInclusive().longValueExact();
        long upper = chunk.upperExclusive() == null ? heap.pages() : chunk.upperExclusive().longValueExact();
        return Math.max(0, upper - lower);
    }

    private static String reason(ChunkPlan chunks, HeapStatistics heap, HeapScan[] sampled) {
        Map<HeapScan, Integer> counts = new EnumMap<>(HeapScan.class);
        for (HeapScan scan : sampled) {
            counts.merge(scan, 1, Integer::sum);
        }
        String plans = counts.entrySet().stream().map(e -> e.getKey().nodeType() + " " + e.getValue())
                .collect(Collectors.joining(", ", "the server's plan for " + sampled.length + " sampled chunk"
                        + (sampled.length == 1 ? "" : "s") + ": ", ""));
        HeapScan main = counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        if (chunks.kind() == ChunkKind.PHYSICAL) {
            return (main == HeapScan.BLOCK_RANGE ? "physical chunks: each chunk reads its own block range once"
                    : "physical chunks, but the server scans the whole heap for each (TID range scans need PostgreSQL 14)")
                    + " (" + plans + ")";
        }
        return String.format(Locale.ROOT, "%s keys of %s %s (pg_stats correlation %.3f): %s (%s)",
                chunks.kind().wireName(), chunks.column(), order(heap.orderedShare()), heap.correlation(),
                scanWords(main), plans);
    }

    private static String order(double share) {
        return share >= 0.9 ? "follow the heap order" : share < 0.3 ? "lie in random order in the heap"
                : "partly follow the heap order";
    }

    private static String scanWords(HeapScan scan) {
        return switch (scan) {
            case SEQUENTIAL, BLOCK_RANGE -> "a sequential scan reads the whole table for every chunk";
            case BITMAP -> "a chunk's bitmap heap scan visits every page holding one of its rows";
            case INDEX -> "a chunk's index scan fetches a heap page for each row out of heap order";
        };
    }
}
