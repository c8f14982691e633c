package io.dpone.backfill.core.campaign;

import io.dpone.backfill.core.doctor.PreflightResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The pre-flight verdict a campaign started with (or was refused by): {@code passed}, {@code failed} or
 * {@code skipped} (by whom), the number of errors and warnings, and at most ten findings as {@code code: message}.
 */
public class PreflightStatus {
    public static final int MAX_FINDINGS = 10;
    private static final int MAX_FINDING_CHARS = 400;

    /** The one rendering of a verdict, for a refused start and for the one the ledger records alike. */
    public static PreflightStatus of(PreflightResult result) {
        PreflightStatus p = new PreflightStatus();
        p.setResult(result.result());
        p.setSkippedBy(result.skippedBy());
        p.setErrors(result.errors().size());
        p.setWarnings(result.warnings().size());
        p.setFindings(Stream.concat(result.errors().stream(), result.warnings().stream()).limit(MAX_FINDINGS)
                .map(f -> bounded(f.severity() + " " + f.code() + ": " + f.message())).toList());
        return p;
    }

    private static String bounded(String s) {
        return s.length() > MAX_FINDING_CHARS ? s.substring(0, MAX_FINDING_CHARS) + "..." : s;
    }

    private String result;
    private String skippedBy;
    private Integer errors;
    private Integer warnings;
    private List<String> findings = new ArrayList<>();

    public String getResult() {
        return result;
    }

    public void setResult(String result) {
        this.result = result;
    }

    public String getSkippedBy() {
        return skippedBy;
    }

    public void setSkippedBy(String skippedBy) {
        this.skippedBy = skippedBy;
    }

    public Integer getErrors() {
        return errors;
    }

    public void setErrors(Integer errors) {
        this.errors = errors;
    }

    public Integer getWarnings() {
        return warnings;
    }

    public void setWarnings(Integer warnings) {
        this.warnings = warnings;
    }

    public List<String> getFindings() {
        return findings;
    }

    public void setFindings(List<String> findings) {
        this.findings = findings == null ? new ArrayList<>() : new ArrayList<>(findings);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PreflightStatus p && Objects.equals(result, p.result) && Objects.equals(skippedBy, p.skippedBy)
                && Objects.equals(errors, p.errors) && Objects.equals(warnings, p.warnings)
                && Objects.equals(findings, p.findings);
    }

    @Override
    public int hashCode() {
        return Objects.hash(result, skippedBy, errors, warnings, findings);
    }
}
