package io.dpone.backfill.core.doctor;

import java.util.List;

/**
 * What pre-flight concluded: {@code passed} (no ERROR), {@code failed} (at least one ERROR: the start is refused),
 * or {@code skipped} by an expert. Warnings are kept so that the evidence shows what a person accepted.
 */
public record PreflightResult(String result, String skippedBy, DoctorReport report) {
    public static final String PASSED = "passed";
    public static final String FAILED = "failed";
    public static final String SKIPPED = "skipped";

    public static PreflightResult of(DoctorReport report) {
        return new PreflightResult(report.hasErrors() ? FAILED : PASSED, null, report);
    }

    public static PreflightResult skipped(String by) {
        return new PreflightResult(SKIPPED, by, new DoctorReport(List.of()));
    }

    public boolean refuses() {
        return FAILED.equals(result);
    }

    public List<Finding> errors() {
        return report.withSeverity(Severity.ERROR);
    }

    public List<Finding> warnings() {
        return report.withSeverity(Severity.WARNING);
    }
}
