package io.dpone.backfill.cli.plan;

import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.PreflightResult;

import java.util.function.Consumer;

/** Prints the findings a pre-flight refused a start with, errors first, each with its action. */
public final class PreflightReport {
    private PreflightReport() {
    }

    public static void print(PreflightResult result, Consumer<String> out) {
        for (Finding f : result.errors()) {
            out.accept(line(f));
        }
        for (Finding f : result.warnings()) {
            out.accept(line(f));
        }
        out.accept("fix the ERRORs above (`backfill doctor` shows them all), then run again; experts can start anyway"
                + " with --skip-preflight, which the evidence records");
    }

    static String line(Finding f) {
        return String.format("%-7s %-40s %s%s", f.severity(), f.code(), f.message(),
                f.recommendedAction().isBlank() ? "" : " -> " + f.recommendedAction());
    }
}
