package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.PreflightStatus;
import io.dpone.backfill.core.doctor.DoctorReport;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.PreflightResult;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The verdict the ledger records is the one the status shows: true counts, at most ten bounded findings. */
class PhaseDetailPreflightTest {
    @Test
    void aRecordedVerdictKeepsItsTrueWarningCountBeyondTheTenFindingsItLists() {
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            findings.add(Finding.warning("target.w" + i, "warning " + i + " " + "x".repeat(600), "look"));
        }
        PreflightResult result = PreflightResult.of(new DoctorReport(findings));

        PreflightStatus recorded = PhaseDetail.parse(PhaseDetail.parse("{}").withPreflight(result).json()).preflight();

        assertThat(recorded).isEqualTo(PreflightStatus.of(result));
        assertThat(recorded.getResult()).isEqualTo("passed");
        assertThat(recorded.getWarnings()).isEqualTo(12);
        assertThat(recorded.getFindings()).hasSize(10).allMatch(f -> f.startsWith("WARNING target.w") && f.length() <= 403);
    }

    @Test
    void aSkippedVerdictSaysWhoSkippedIt() {
        PhaseDetail detail = PhaseDetail.parse("{}").withPreflight(PreflightResult.skipped("--skip-preflight"));

        assertThat(detail.preflightResult()).isEqualTo("skipped");
        assertThat(detail.preflightSkippedBy()).isEqualTo("--skip-preflight");
        assertThat(PhaseDetail.parse("{}").preflight()).isNull();
    }
}
