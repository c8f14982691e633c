package io.dpone.backfill.cli.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.core.source.SourceReadCost;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The bench's result: the setup, then per arm its median run's wall seconds, rows/s, ratios to B0 and B2, chunk
 * seconds, source heap pages visited against the table's pages (beside the visits predicted for the chunked arms'
 * plan, issue 41), target log bytes and lane peak heap after GC.
 */
final class BenchReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final double MIB = 1024.0 * 1024.0;
    /** The arm a rows/s cap applies to: the campaign; the baselines are never throttled. */
    static final String CAPPED_ARM = "S";

    private final ObjectNode setup;
    private final long tablePages;
    private final Map<String, ArmSummary> arms = new LinkedHashMap<>();
    /** What the source predicted the chunked arms' plan visits (ADR 0055); they all read the same chunks. */
    private final SourceReadCost predicted;

    BenchReport(ObjectNode setup, long tablePages, List<ArmSummary> summaries, SourceReadCost predicted) {
        this.setup = setup;
        this.tablePages = tablePages;
        this.predicted = predicted;
        summaries.forEach(s -> arms.put(s.arm().code(), s));
    }

    /** An arm that read the source chunk by chunk, so the prediction applies to it; B0 is one stream. */
    private static boolean chunked(ArmSummary s) {
        return !s.median().chunks().isEmpty();
    }

    Map<String, ArmSummary> arms() {
        return arms;
    }

    ObjectNode json() {
        ObjectNode root = setup.deepCopy();
        ObjectNode out = root.putObject("arms");
        for (ArmSummary s : arms.values()) {
            ObjectNode a = out.putObject(s.arm().code());
            a.put("description", s.arm().description());
            a.put("seconds", round(s.median().seconds())).put("rows", s.median().rows())
                    .put("rowsPerSecond", Math.round(s.median().rowsPerSecond()));
            arm("B0").ifPresent(b0 -> a.put("ratioToB0", round(s.ratioTo(b0))));
            arm("B2").ifPresent(b2 -> a.put("ratioToB2", round(s.ratioTo(b2))));
            if (!s.median().chunks().isEmpty()) {
                a.putObject("chunkSeconds").put("p50", round(s.chunkQuantile(0.5))).put("p95", round(s.chunkQuantile(0.95)))
                        .put("max", round(s.chunkQuantile(1.0)))
                        .put("p95OverP50", round(s.chunkQuantile(0.95) / s.chunkQuantile(0.5)));
            }
            a.put("heapPagesVisited", s.median().heapPagesVisited())
                    .put("heapPagesPerTablePage", round(s.median().heapPagesVisited() / (double) tablePages));
            if (chunked(s) && predicted.known()) {
                a.put("heapPagesPredicted", predicted.pagesVisited())
                        .put("predictedOverMeasured", round(predicted.pagesVisited() / (double) s.median().heapPagesVisited()));
            }
            if (s.median().logBytes().isPresent()) {
                a.put("targetLogBytes", s.median().logBytes().getAsLong());
            } else {
                a.putNull("targetLogBytes");
            }
            if (!s.median().lanePeakHeapBytes().isEmpty()) {
                ArrayNode lanes = a.putArray("lanePeakHeapAfterGcMiB");
                s.median().lanePeakHeapBytes().forEach(b -> lanes.add(round(b / MIB)));
                a.put("maxLanePeakHeapAfterGcMiB", round(s.lanePeakHeapBytes() / MIB));
            }
            if (!s.median().chunks().isEmpty()) {
                a.put("loadRowsPerSecond", Math.round(s.median().loadRowsPerSecond())).put("loadSeconds", round(s.median().loadSeconds()));
            }
            long cap = setup.path("rowsPerSecondCap").asLong(0);
            if (cap > 0 && s.arm().code().equals(CAPPED_ARM)) {
                double ratio = s.median().loadRowsPerSecond() / cap;
                a.putObject("throttle").put("rowsPerSecondCap", cap)
                        .put("loadRowsPerSecond", Math.round(s.median().loadRowsPerSecond()))
                        .put("ratioToCap", Math.round(ratio * 1000) / 1000.0)
                        .put("withinFivePercent", Math.abs(ratio - 1) <= 0.05);
            }
            // The read-back gate before publication (ADR 0036), inside the arm's seconds.
            s.median().contentCheckSeconds().ifPresent(c -> a.put("contentCheckSeconds", round(c)));
            s.median().rawReadSeconds().ifPresent(r -> a.put("rawReadSeconds", round(r)));
            ReconcileTimes passes = s.median().reconcile();
            if (passes != null) {
                a.putObject("reconcile").put("loadSeconds", round(s.median().seconds()))
                        .put("nothingChangedSeconds", round(passes.nothingSeconds()))
                        .put("nothingChangedShareOfLoad", round3(passes.nothingShare(s.median().seconds())))
                        .put("changedRows", passes.changedRows())
                        .put("changedSeconds", round(passes.changedSeconds()))
                        .put("changedShareOfLoad", round3(passes.changedShare(s.median().seconds())));
            }
            ArrayNode runs = a.putArray("runs");
            for (ArmRun r : s.runs()) {
                ObjectNode run = runs.addObject().put("repetition", r.repetition()).put("seconds", round(r.seconds()))
                        .put("rowsPerSecond", Math.round(r.rowsPerSecond()));
                r.contentCheckSeconds().ifPresent(c -> run.put("contentCheckSeconds", round(c)));
                r.rawReadSeconds().ifPresent(c -> run.put("rawReadSeconds", round(c)));
                if (r.reconcile() != null) {
                    run.put("nothingChangedSeconds", round(r.reconcile().nothingSeconds()))
                            .put("changedSeconds", round(r.reconcile().changedSeconds()));
                }
            }
        }
        return root;
    }

    String jsonText() {
        try {
            return JSON.writeValueAsString(json());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A fixed-width table for a terminal, one arm per line. */
    String table() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%s rows, %s chunks (%s), %s lanes, %s repetition(s), table %,d pages; target %s%n",
                String.format(Locale.ROOT, "%,d", setup.path("rows").asLong()), setup.path("chunks").asText(),
                setup.path("kind").asText(), setup.path("lanes").asText(), setup.path("repeat").asText(), tablePages,
                setup.path("target").asText()));
        if (setup.hasNonNull("laneClassArchive")) {
            out.append("lanes' JVM options: ").append(setup.path("laneJavaOptions").asText()).append("; class archive ")
                    .append(setup.path("laneClassArchive").asText()).append(System.lineSeparator());
        }
        out.append(String.format(Locale.ROOT, "%-4s %9s %11s %7s %7s %22s %16s %12s %12s%n", "arm", "seconds", "rows/s",
                "xB0", "xB2", "chunk s p50/p95/max", "heap pages (xT)", "target log", "lane heap"));
        for (ArmSummary s : arms.values()) {
            ArmRun m = s.median();
            String chunks = m.chunks().isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f/%.2f/%.2f",
                    s.chunkQuantile(0.5), s.chunkQuantile(0.95), s.chunkQuantile(1.0));
            out.append(String.format(Locale.ROOT, "%-4s %9.2f %,11d %7s %7s %22s %16s %12s %12s%n", s.arm().code(), m.seconds(),
                    Math.round(m.rowsPerSecond()), arm("B0").map(b -> String.format(Locale.ROOT, "%.2f", s.ratioTo(b))).orElse("-"),
                    arm("B2").map(b -> String.format(Locale.ROOT, "%.2f", s.ratioTo(b))).orElse("-"), chunks,
                    String.format(Locale.ROOT, "%,d (%.2f)", m.heapPagesVisited(), m.heapPagesVisited() / (double) tablePages),
                    m.logBytes().isPresent() ? String.format(Locale.ROOT, "%.0f MiB", m.logBytes().getAsLong() / MIB) : "n/a",
                    m.lanePeakHeapBytes().isEmpty() ? "-" : String.format(Locale.ROOT, "%.1f MiB", s.lanePeakHeapBytes() / MIB)));
        }
        for (ArmSummary s : arms.values()) {
            out.append(String.format(Locale.ROOT, "  %-3s %s%n", s.arm().code(), s.arm().description()));
        }
        long cap = setup.path("rowsPerSecondCap").asLong(0);
        for (ArmSummary s : arms.values()) {
            if (!s.median().chunks().isEmpty()) {
                double load = s.median().loadRowsPerSecond();
                out.append(String.format(Locale.ROOT, "  %-3s load rate %,d rows/s over %.2f s (first chunk start to last commit)%s%n",
                        s.arm().code(), Math.round(load), s.median().loadSeconds(), cap > 0 && s.arm().code().equals(CAPPED_ARM)
                                ? String.format(Locale.ROOT, ": %.3fx the cap of %,d rows/s (%s 5%%)", load / cap, cap,
                                Math.abs(load / cap - 1) <= 0.05 ? "within" : "NOT within") : ""));
            }
        }
        for (ArmSummary s : arms.values()) {
            if (chunked(s)) {
                long measured = s.median().heapPagesVisited();
                out.append(String.format(Locale.ROOT, "  %-3s heap page visits: predicted %s, measured %,d (%.2fx the"
                        + " table)%s%n", s.arm().code(), predicted.known() ? String.format(Locale.ROOT, "%,d (%.2fx)",
                        predicted.pagesVisited(), predicted.factor()) : "-", measured, measured / (double) tablePages,
                        predicted.known() ? String.format(Locale.ROOT, ", predicted/measured %.2f",
                                predicted.pagesVisited() / (double) measured) : ""));
            }
        }
        if (arms.values().stream().anyMatch(BenchReport::chunked)) {
            out.append("  predicted: ").append(predicted.reason()).append(System.lineSeparator());
        }
        for (ArmSummary s : arms.values()) {
            s.median().contentCheckSeconds().ifPresent(c -> out.append(String.format(Locale.ROOT,
                    "  %-3s content check before publication: %.2f s of its %.2f s%s%n", s.arm().code(), c, s.median().seconds(),
                    s.median().rawReadSeconds().isPresent() ? String.format(Locale.ROOT,
                            "; a raw read of the published table by one session: %.2f s (%.2fx)",
                            s.median().rawReadSeconds().getAsDouble(), c / s.median().rawReadSeconds().getAsDouble()) : "")));
        }
        for (ArmSummary s : arms.values()) {
            ReconcileTimes passes = s.median().reconcile();
            if (passes != null) {
                double load = s.median().seconds();
                out.append(String.format(Locale.ROOT, "  %-3s reconciliation after a %.2f s load: nothing changed %.2f s (%.3fx"
                        + " the load), %,d rows changed %.2f s (%.3fx)%n", s.arm().code(), load, passes.nothingSeconds(),
                        passes.nothingShare(load), passes.changedRows(), passes.changedSeconds(), passes.changedShare(load)));
            }
        }
        return out.toString();
    }

    private Optional<ArmSummary> arm(String code) {
        return Optional.ofNullable(arms.get(code));
    }

    static double round3(double v) {
        return Double.isFinite(v) ? Math.round(v * 1000) / 1000.0 : 0;
    }

    static double round(double v) {
        return Double.isFinite(v) ? Math.round(v * 100) / 100.0 : 0;
    }
}
