package io.dpone.backfill.operator.status;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignProgress;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatusAssemblerTest {
    private static CampaignProgress progress(long committed, long total) {
        CampaignProgress p = new CampaignProgress();
        p.setCommittedChunks(committed);
        p.setTotalChunks(total);
        p.setRowsPerSecond(1234.5);
        p.setEtaSeconds(42L);
        return p;
    }

    @Test
    void theRateDescribesLoadingOnly() {
        CampaignProgress loading = progress(3, 8);
        StatusAssembler.freezeRateOutsideLoading(loading, CampaignPhase.Loading);
        assertThat(loading.getRowsPerSecond()).isEqualTo(1234.5);
        assertThat(loading.getEtaSeconds()).isEqualTo(42L);

        CampaignProgress suspended = progress(3, 8);
        StatusAssembler.freezeRateOutsideLoading(suspended, CampaignPhase.Suspended);
        assertThat(suspended.getRowsPerSecond()).isZero();
        assertThat(suspended.getEtaSeconds()).isNull();

        CampaignProgress done = progress(8, 8);
        done.setEtaSeconds(0L);
        StatusAssembler.freezeRateOutsideLoading(done, CampaignPhase.HandoffCommitted);
        assertThat(done.getRowsPerSecond()).isZero();
        assertThat(done.getEtaSeconds()).isZero();
    }

    @Test
    void aCeilingInForceIsAThrottledConditionTrueWhileTheLanesWaitUnknownForBytesAlone() {
        var loading = io.dpone.backfill.core.campaign.CampaignPhase.Loading;
        var atCeiling = io.dpone.backfill.core.engine.ThrottleJudge.status(
                new io.dpone.backfill.core.ledger.ThrottleSetting(1000, 0, 2), loading, 990, false);
        var below = io.dpone.backfill.core.engine.ThrottleJudge.status(
                new io.dpone.backfill.core.ledger.ThrottleSetting(1000, 0, 2), loading, 100, false);
        var bytes = io.dpone.backfill.core.engine.ThrottleJudge.status(
                new io.dpone.backfill.core.ledger.ThrottleSetting(0, 1000, 2), loading, 100, false);

        var t = CampaignConditions.throttled(atCeiling);
        assertThat(t.getType()).isEqualTo("Throttled");
        assertThat(t.getStatus()).isEqualTo("True");
        assertThat(t.getReason()).isEqualTo("RateCeiling");
        assertThat(t.getMessage()).contains("1000 rows/s shared by 2 lanes");
        assertThat(CampaignConditions.throttled(below).getStatus()).isEqualTo("False");
        assertThat(CampaignConditions.throttled(below).getReason()).isEqualTo("BelowCeiling");
        assertThat(CampaignConditions.throttled(bytes).getStatus()).isEqualTo("Unknown");
    }

    @Test
    void stuckLanePodsDegradeALoadingCampaignBeforeReplacedFailures() {
        var stuck = new io.dpone.backfill.operator.lanes.LaneReport(java.util.List.of(), java.util.List.of(), 2, 3, false, 4,
                java.util.List.of("items-lane-0-0: ImagePullBackOff"));
        StatusAssembler.Degradation d = StatusAssembler.degradation(CampaignPhase.Loading, stuck);
        assertThat(d.reason()).isEqualTo("LanePodsStuck");
        assertThat(d.message()).contains("items-lane-0-0: ImagePullBackOff", "spec.lane.image");

        var failed = new io.dpone.backfill.operator.lanes.LaneReport(java.util.List.of(), java.util.List.of(), 2, 3, false, 4, java.util.List.of());
        assertThat(StatusAssembler.degradation(CampaignPhase.Loading, failed).reason()).isEqualTo("LanePodFailures");
        var healthy = new io.dpone.backfill.operator.lanes.LaneReport(java.util.List.of(), java.util.List.of(), 0, 3, false, 4, java.util.List.of());
        assertThat(StatusAssembler.degradation(CampaignPhase.Loading, healthy)).isNull();
        assertThat(StatusAssembler.degradation(CampaignPhase.Validating, stuck)).as("only while loading").isNull();
    }
}
