package io.dpone.backfill.core.doctor;

import java.util.List;
import java.util.Optional;

/** Everything a doctor run found, in the order checked. A campaign must not start while it {@link #hasErrors()}. */
public record DoctorReport(List<Finding> findings) {
    public DoctorReport {
        findings = List.copyOf(findings);
    }

    public boolean hasErrors() {
        return findings.stream().anyMatch(f -> f.severity() == Severity.ERROR);
    }

    public boolean hasWarnings() {
        return findings.stream().anyMatch(f -> f.severity() == Severity.WARNING);
    }

    public List<Finding> withSeverity(Severity severity) {
        return findings.stream().filter(f -> f.severity() == severity).toList();
    }

    /** The first finding with this code, if any. */
    public Optional<Finding> find(String code) {
        return findings.stream().filter(f -> f.code().equals(code)).findFirst();
    }
}
