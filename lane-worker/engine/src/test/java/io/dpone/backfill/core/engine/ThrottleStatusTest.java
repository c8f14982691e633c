package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignProgress;
import io.dpone.backfill.core.campaign.ThrottleStatus;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.ChunkEstimates;
import io.dpone.backfill.core.ledger.ThrottleSetting;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the status says of a ceiling (issue 28): whether it holds the lanes back, and an ETA it can keep. */
class ThrottleStatusTest {
    private static final ThrottleSetting CEILING = new ThrottleSetting(100_000, 0, 4);

    @Test
    void lanesReadingAtTheCeilingAreThrottledAndBelowItAreNot() {
        assertThat(ThrottleJudge.status(CEILING, CampaignPhase.Loading, 99_500, false).getReason())
                .isEqualTo(ThrottleStatus.RATE_CEILING);
        assertThat(ThrottleJudge.status(CEILING, CampaignPhase.Loading, 40_000, false).getReason())
                .isEqualTo(ThrottleStatus.BELOW_CEILING);
        ThrottleStatus t = ThrottleJudge.status(CEILING, CampaignPhase.Loading, 99_500, false);
        assertThat(t.throttled()).isTrue();
        assertThat(t.getRowsPerSecond()).isEqualTo(100_000L);
        assertThat(t.getBytesPerSecond()).isNull();
        assertThat(t.getLanes()).isEqualTo(4);
        assertThat(t.getMessage()).isEqualTo("the lanes read at the ceiling of 100000 rows/s shared by 4 lanes and wait"
                + " for it between slices of rows");
    }

    @Test
    void aRateHoveringNearTheBoundDoesNotFlipTheJudgement() {
        assertThat(ThrottleJudge.status(CEILING, CampaignPhase.Loading, 85_000, false).throttled()).isFalse();
        assertThat(ThrottleJudge.status(CEILING, CampaignPhase.Loading, 85_000, true).throttled()).isTrue();
        assertThat(ThrottleJudge.status(CEILING, CampaignPhase.Loading, 79_000, true).throttled()).isFalse();
    }

    @Test
    void noCeilingNoThrottleStatusAndOnlyLoadingLanesCanBeThrottled() {
        assertThat(ThrottleJudge.status(ThrottleSetting.NONE, CampaignPhase.Loading, 1e9, true)).isNull();
        assertThat(ThrottleJudge.status(CEILING, CampaignPhase.Validating, 100_000, true).throttled()).isFalse();
    }

    @Test
    void aByteCeilingAloneIsInForceButNotJudged() {
        ThrottleStatus t = ThrottleJudge.status(new ThrottleSetting(0, 10_000_000, 2), CampaignPhase.Loading, 5e6, false);

        assertThat(t.getReason()).isEqualTo(ThrottleStatus.BYTE_CEILING_UNMEASURED);
        assertThat(t.getBytesPerSecond()).isEqualTo(10_000_000L);
        assertThat(t.getRowsPerSecond()).isNull();
    }

    @Test
    void theEtaNeverPromisesFasterThanTheCeilingAllows() {
        // 1,000,000 estimated rows left; a burst measured at 500,000 rows/s would say 2 s, the ceiling says 10 s.
        ChunkCounts counts = new ChunkCounts(10, 5, 0, 5, 0, 0, 500_000, 500_000, 500_000, 60,
                new ChunkEstimates(true, 1_000_000, List.of()));
        Eta fast = Eta.of(counts, 500_000, "pg_class.reltuples");

        Eta capped = Eta.underCeiling(fast, counts, 100_000);

        assertThat(fast.seconds()).isEqualTo(2L);
        assertThat(capped.seconds()).isEqualTo(10L);
        assertThat(capped.basis()).endsWith("; at the ceiling of 100000 rows/s");
        assertThat(Eta.underCeiling(Eta.of(counts, 50_000, "pg_class.reltuples"), counts, 100_000).seconds())
                .as("slower than the ceiling: the measured rate stands").isEqualTo(20L);
    }

    @Test
    void withoutEstimatesTheCeilingUsesTheAverageCommittedChunk() {
        ChunkCounts counts = new ChunkCounts(10, 5, 0, 5, 0, 0, 500_000, 500_000, 500_000, 60);

        assertThat(Eta.underCeiling(Eta.of(counts, 1_000_000, null), counts, 10_000).seconds()).isEqualTo(50L);
    }

    @Test
    void theProjectedStatusCarriesTheCeilingAndTheCappedEta() {
        ChunkCounts counts = new ChunkCounts(10, 5, 0, 5, 0, 0, 500_000, 500_000, 500_000, 60,
                new ChunkEstimates(true, 1_000_000, List.of()));
        BackfillCampaignStatus status = new BackfillCampaignStatus();
        status.setPhase(CampaignPhase.Loading);
        CampaignProgress p = CampaignStatusProjector.progress(counts, "pg_class.reltuples");
        p.setRowsPerSecond(99_000);
        p.setEtaSeconds(2L);
        status.setProgress(p);

        CampaignStatusProjector.withThrottle(status, counts, CEILING, false);

        assertThat(status.getThrottle().throttled()).isTrue();
        assertThat(status.getProgress().getEtaSeconds()).isEqualTo(10L);
        assertThat(CampaignStatusProjector.withThrottle(new BackfillCampaignStatus(), counts, ThrottleSetting.NONE, false)
                .getThrottle()).isNull();
    }
}
