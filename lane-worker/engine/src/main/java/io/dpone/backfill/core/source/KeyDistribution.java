package io.dpone.backfill.core.source;

import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Spreads a row estimate over the chunks of a plan, from either an equi-depth histogram of the chunk column (as
 * PostgreSQL keeps in {@code pg_stats.histogram_bounds}: every bucket between two bounds holds the same share of
 * rows) or a sample of keys. Keys are the plan's numbers (integers, or UUIDs as unsigned 128-bit integers), so one
 * arithmetic serves both kinds. Pure: the adapter reads the statistics, this decides what they mean.
 */
public final class KeyDistribution {
    private static final MathContext MC = MathContext.DECIMAL64;

    private KeyDistribution() {
    }

    /**
     * Rows per chunk from column statistics as PostgreSQL keeps them: {@code rows} rows in the table, a share
     * {@code nullFraction} with a NULL key (in no chunk), the most common values with their frequencies (each in its
     * own chunk), and the rest spread as the equi-depth histogram says, interpolating linearly inside a bucket (what
     * the planner assumes too). Either part may be empty; rounding keeps the sum exact.
     */
    public static List<Long> fromStatistics(ChunkPlan plan, long rows, double nullFraction, List<BigInteger> histogram,
                                            List<BigInteger> commonValues, List<Double> commonFrequencies) {
        double[] shares = new double[plan.size()];
        double common = 0;
        for (int i = 0; i < commonValues.size(); i++) {
            shares[plan.locate(commonValues.get(i)).id()] += commonFrequencies.get(i);
            common += commonFrequencies.get(i);
        }
        double histogramShare = Math.max(0, 1 - nullFraction - common);
        if (histogram.size() >= 2) {
            BigInteger[] b = histogram.toArray(BigInteger[]::new);
            Arrays.sort(b);
            for (int i = 0; i < plan.size(); i++) {
                ChunkRange c = plan.chunk(i);
                shares[i] += histogramShare * (cdf(b, c.upperExclusive(), 1.0) - cdf(b, c.lowerInclusive(), 0.0));
            }
        }
        double covered = Arrays.stream(shares).sum();
        return apportion(shares, Math.round(rows * Math.min(1.0, covered)));
    }

    /** Rows per chunk from a sample that counted {@code sampled[i]} rows in chunk i and read a share of the table. */
    public static List<Long> fromSample(long[] sampled, double sampledShare) {
        List<Long> out = new ArrayList<>(sampled.length);
        for (long n : sampled) {
            out.add(Math.round(n / sampledShare));
        }
        return out;
    }

    /** Share of the histogram's rows below {@code key}; a null key is an open end ({@code open} is 0 or 1). */
    static double cdf(BigInteger[] bounds, BigInteger key, double open) {
        if (key == null) {
            return open;
        }
        int buckets = bounds.length - 1;
        if (key.compareTo(bounds[0]) <= 0) {
            return 0.0;
        }
        if (key.compareTo(bounds[buckets]) >= 0) {
            return 1.0;
        }
        int lo = 0;
        int hi = buckets;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (key.compareTo(bounds[mid]) >= 0) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        BigInteger width = bounds[hi].subtract(bounds[lo]);
        double inside = width.signum() == 0 ? 0.0
                : new BigDecimal(key.subtract(bounds[lo])).divide(new BigDecimal(width), MC).doubleValue();
        return (lo + inside) / buckets;
    }

    /** Largest-remainder rounding: whole rows per chunk that add up to {@code rows} exactly. */
    static List<Long> apportion(double[] shares, long rows) {
        double sum = Arrays.stream(shares).sum();
        long[] whole = new long[shares.length];
        double[] rest = new double[shares.length];
        long assigned = 0;
        for (int i = 0; i < shares.length; i++) {
            double exact = sum > 0 ? shares[i] / sum * rows : 0;
            whole[i] = (long) Math.floor(exact);
            rest[i] = exact - whole[i];
            assigned += whole[i];
        }
        Integer[] order = new Integer[shares.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Double.compare(rest[y], rest[x]));
        for (int k = 0; sum > 0 && assigned < rows && k < order.length; k++, assigned++) {
            whole[order[k]]++;
        }
        List<Long> out = new ArrayList<>(whole.length);
        for (long w : whole) {
            out.add(w);
        }
        return out;
    }
}
