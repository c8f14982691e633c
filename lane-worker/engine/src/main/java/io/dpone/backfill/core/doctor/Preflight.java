package io.dpone.backfill.core.doctor;

import java.util.Objects;

/**
 * How a start is gated: by the campaign's doctor (the default, for every driver), or skipped by an expert's
 * explicit request, which the evidence and the status then carry. There is no third way to start a campaign.
 */
public final class Preflight {
    private final CampaignDoctor doctor;
    private final String skipReason;

    private Preflight(CampaignDoctor doctor, String skipReason) {
        this.doctor = doctor;
        this.skipReason = skipReason;
    }

    public static Preflight checkedBy(CampaignDoctor doctor) {
        return new Preflight(Objects.requireNonNull(doctor, "doctor"), null);
    }

    /** {@code how} names who asked for it, e.g. {@code --skip-preflight} or the operator annotation. */
    public static Preflight skipped(String how) {
        if (how == null || how.isBlank()) {
            throw new IllegalArgumentException("a skipped pre-flight must say who skipped it");
        }
        return new Preflight(null, how);
    }

    public boolean isSkipped() {
        return doctor == null;
    }

    public String skipReason() {
        return skipReason;
    }

    /** Runs the checks; the result of a skipped pre-flight is {@link PreflightResult#skipped}. */
    public PreflightResult run() {
        if (doctor == null) {
            return PreflightResult.skipped(skipReason);
        }
        return PreflightResult.of(doctor.check());
    }
}
