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

    @Test
    void aHandedOffCampaignWithQueuedKeysIsReadyNotReconcilingAndSaysToDecideTheKeysFirst() {
        var campaign = io.dpone.backfill.operator.support.PgCampaign.campaign("backfill", "items", "items_v1", 8, 2,
                "  reconcile: {mode: once}\n");
        campaign.getMetadata().setGeneration(1L);
        var projection = new io.dpone.backfill.core.campaign.BackfillCampaignStatus();
        projection.setPhase(CampaignPhase.HandoffCommitted);
        projection.setRecommendedAction("start incremental sync from the XMin anchor 2001 (reconciliation pass 1)");
        var r = new io.dpone.backfill.core.campaign.ReconciliationStatus();
        r.setPassCount(1);
        r.setQueue(2L);
        r.setCaughtUp(false);
        projection.setReconciliation(r);
        var step = io.dpone.backfill.core.engine.StepResult.settled(CampaignPhase.HandoffCommitted, "published and handed off",
                "campaign complete", java.time.Duration.ZERO, new io.dpone.backfill.core.engine.NextAction.StartIncrementalSync("2001"));
        var stepped = new io.dpone.backfill.operator.driver.DriveOutcome.Stepped(java.util.List.of(step), projection, null,
                java.util.Optional.empty(), java.util.List.of(), io.dpone.backfill.operator.driver.DriveOutcome.ChunkActivity.NONE);

        var status = new StatusAssembler(java.time.Clock.fixed(java.time.Instant.EPOCH, java.time.ZoneOffset.UTC))
                .stepped(campaign, null, stepped);

        assertThat(ConditionSet.isTrue(status.getConditions(), CampaignConditions.READY)).isTrue();
        assertThat(ConditionSet.isTrue(status.getConditions(), CampaignConditions.RECONCILING)).isFalse();
        assertThat(ConditionSet.find(status.getConditions(), CampaignConditions.CAUGHT_UP).orElseThrow().getReason())
                .isEqualTo(CampaignConditions.KEYS_QUEUED);
        assertThat(status.getRecommendedAction()).startsWith("2 key(s) written in the published table by someone else")
                .contains("--accept KEY", "--keep KEY", "start incremental sync from the XMin anchor 2001");
    }

    @Test
    void aPassThatFailsAfterValidatingShowsTheLedgersPhaseAndStaysDegradedNotTheLastGoodPassesPhase() {
        var campaign = io.dpone.backfill.operator.support.PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, "");
        campaign.getMetadata().setGeneration(1L);
        var lastGood = new io.dpone.backfill.core.campaign.BackfillCampaignStatus();
        lastGood.setPhase(CampaignPhase.Loading);
        lastGood.setProgress(progress(5, 8));
        var ledger = new io.dpone.backfill.core.campaign.BackfillCampaignStatus();
        ledger.setPhase(CampaignPhase.Validating);
        ledger.setProgress(progress(8, 8));
        var assembler = new StatusAssembler(java.time.Clock.fixed(java.time.Instant.EPOCH, java.time.ZoneOffset.UTC));

        var status = assembler.waiting(campaign, lastGood, new io.dpone.backfill.operator.driver.DriveOutcome.Waiting(
                "EngineError", "the swap's rename was refused", java.time.Duration.ofSeconds(15), java.util.Optional.of(ledger)));
        var unread = assembler.waiting(campaign, lastGood, new io.dpone.backfill.operator.driver.DriveOutcome.Waiting(
                "ConnectionLost", "connection reset", java.time.Duration.ofSeconds(15)));

        assertThat(status.getPhase()).isEqualTo(CampaignPhase.Validating);
        assertThat(status.getProgress().getCommittedChunks()).isEqualTo(8);
        assertThat(status.getProgress().getRowsPerSecond()).as("no rate outside loading").isZero();
        assertThat(ConditionSet.find(status.getConditions(), CampaignConditions.DEGRADED).orElseThrow().getMessage())
                .isEqualTo("the swap's rename was refused");
        assertThat(ConditionSet.isTrue(status.getConditions(), CampaignConditions.RECONCILING)).isTrue();
        assertThat(ledger.getProgress().getRowsPerSecond()).as("the outcome's view is not changed").isEqualTo(1234.5);
        assertThat(unread.getPhase()).as("a ledger not read leaves the last status").isEqualTo(CampaignPhase.Loading);
        assertThat(unread.getProgress().getCommittedChunks()).isEqualTo(5);
    }
}
