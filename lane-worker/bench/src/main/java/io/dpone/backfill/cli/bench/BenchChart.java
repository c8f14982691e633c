package io.dpone.backfill.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small self-contained HTML page: an SVG chart of rows committed over time, one line per arm (its median run),
 * and the report's table. No scripts, no external files: it opens anywhere and can be attached to a ticket.
 */
final class BenchChart {
    private static final String[] COLOURS = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e"};
    private static final int WIDTH = 720;
    private static final int HEIGHT = 360;
    private static final int MARGIN = 50;

    private BenchChart() {
    }

    static String html(BenchReport report) {
        double maxSeconds = report.arms().values().stream().mapToDouble(s -> s.median().seconds()).max().orElse(1);
        long maxRows = report.arms().values().stream().mapToLong(s -> s.median().rows()).max().orElse(1);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", MARGIN, HEIGHT - MARGIN, WIDTH - 10, HEIGHT - MARGIN));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"10\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>%n", MARGIN, MARGIN, HEIGHT - MARGIN));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">seconds (0 to %.1f)</text>%n", WIDTH / 2 - 40, HEIGHT - 15, maxSeconds));
        svg.append(String.format(Locale.ROOT, "<text x=\"5\" y=\"20\">rows (to %,d)</text>%n", maxRows));
        int i = 0;
        for (ArmSummary s : report.arms().values()) {
            String colour = COLOURS[i % COLOURS.length];
            StringBuilder points = new StringBuilder();
            for (double[] p : committed(s.median())) {
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(p[0], maxSeconds), y(p[1], maxRows)));
            }
            svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"><title>%s</title></polyline>%n",
                    colour, points.toString().trim(), escape(s.arm().code() + ": " + s.arm().description())));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s %.2f s</text>%n", WIDTH - 150, 25 + 16 * i, colour,
                    escape(s.arm().code()), s.median().seconds()));
            i++;
        }
        svg.append("</svg>\n");
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>backfill bench</title></head><body>\n"
                + "<h1>backfill bench: rows committed over time</h1>\n" + svg
                + "<pre>" + escape(report.table()) + "</pre>\n</body></html>\n";
    }

    /** (seconds, rows committed) from the arm's start: each chunk's commit, or one commit at the end of a stream. */
    static List<double[]> committed(ArmRun run) {
        List<double[]> points = new ArrayList<>();
        points.add(new double[]{0, 0});
        if (run.chunks().isEmpty()) {
            points.add(new double[]{run.seconds(), run.rows()});
            return points;
        }
        long rows = 0;
        for (ChunkTiming c : run.chunks()) {
            rows += c.rows();
            points.add(new double[]{c.endSeconds(), rows});
        }
        points.add(new double[]{run.seconds(), rows});
        return points;
    }

    private static double x(double seconds, double maxSeconds) {
        return MARGIN + (WIDTH - MARGIN - 10) * seconds / maxSeconds;
    }

    private static double y(double rows, long maxRows) {
        return HEIGHT - MARGIN - (HEIGHT - MARGIN - 10) * rows / Math.max(1, maxRows);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
