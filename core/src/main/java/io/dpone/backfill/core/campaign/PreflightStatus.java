package io.dpone.backfill.core.campaign;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The pre-flight verdict a campaign started with (or was refused by): {@code passed}, {@code failed} or
 * {@code skipped} (by whom), the number of errors and warnings, and at most ten findings as {@code code: message}.
 */
public class PreflightStatus {
    public static final int MAX_FINDINGS = 10;

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
