package io.dpone.backfill.cli.bench;

import java.util.Comparator;
import java.util.List;

/** An arm's repetitions reduced to one figure each: the run with the median wall time stands for the arm. */
record ArmSummary(BenchArm arm, List<ArmRun> runs, ArmRun median) {
    static ArmSummary of(BenchArm arm, List<ArmRun> runs) {
        List<ArmRun> sorted = runs.stream().sorted(Comparator.comparingDouble(ArmRun::seconds)).toList();
        return new ArmSummary(arm, List.copyOf(runs), sorted.get((sorted.size() - 1) / 2));
    }

    /** How many times faster than {@code other} this arm is (other's seconds over ours): 1.0 is the same speed. */
    double ratioTo(ArmSummary other) {
        return other.median.seconds() / median.seconds();
    }

    /** The {@code q} quantile (0..1) of the median run's chunk seconds, nearest rank; NaN without chunks. */
    double chunkQuantile(double q) {
        List<Double> seconds = median.chunks().stream().map(ChunkTiming::seconds).sorted().toList();
        if (seconds.isEmpty()) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * seconds.size());
        return seconds.get(Math.max(0, Math.min(seconds.size() - 1, rank - 1)));
    }

    long lanePeakHeapBytes() {
        return median.lanePeakHeapBytes().stream().mapToLong(Long::longValue).max().orElse(-1);
    }
}
