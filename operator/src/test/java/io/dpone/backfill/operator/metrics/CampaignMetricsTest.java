package io.dpone.backfill.operator.metrics;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignProgress;
import io.dpone.backfill.core.campaign.PublicationStatus;
import io.dpone.backfill.operator.driver.DriveOutcome;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CampaignMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final CampaignMetrics metrics = new CampaignMetrics(registry);

    private static BackfillCampaignStatus status(CampaignPhase phase, long committed, String validation, String receipt) {
        BackfillCampaignStatus s = new BackfillCampaignStatus();
        s.setPhase(phase);
        CampaignProgress p = new CampaignProgress();
        p.setTotalChunks(8);
        p.setCommittedChunks(committed);
        p.setPendingChunks(8 - committed);
        p.setRowsLoaded(committed * 100);
        p.setRowsPerSecond(50.0);
        s.setProgress(p);
        PublicationStatus pub = new PublicationStatus();
        pub.setValidation(validation);
        pub.setReceiptId(receipt);
        s.setPublication(pub);
        return s;
    }

    @Test
    void gaugesFollowTheStatusAndOutcomesAreCountedOncePerChange() {
        BackfillCampaignStatus loading = status(CampaignPhase.Loading, 3, "pending", null);
        metrics.record("ns", "items", null, loading, new DriveOutcome.ChunkActivity(List.of(1.5, 2.5), 1));
        assertThat(registry.get(CampaignMetrics.CHUNKS).tag("state", "committed").gauge().value()).isEqualTo(3.0);
        assertThat(registry.get(CampaignMetrics.ROWS_LOADED).gauge().value()).isEqualTo(300.0);
        assertThat(registry.get(CampaignMetrics.ROWS_PER_SECOND).gauge().value()).isEqualTo(50.0);
        assertThat(registry.get(CampaignMetrics.CHUNK_DURATION).summary().count()).isEqualTo(2);
        assertThat(registry.get(CampaignMetrics.LEASE_EXPIRATIONS).tag("kind", "chunk").counter().count()).isEqualTo(1.0);

        BackfillCampaignStatus published = status(CampaignPhase.Published, 8, "passed", "r-1");
        metrics.record("ns", "items", loading, published, DriveOutcome.ChunkActivity.NONE);
        metrics.record("ns", "items", published, published, DriveOutcome.ChunkActivity.NONE);
        assertThat(registry.get(CampaignMetrics.VALIDATIONS).tag("outcome", "passed").counter().count()).isEqualTo(1.0);
        assertThat(registry.get(CampaignMetrics.PUBLICATIONS).tag("outcome", "published").counter().count()).isEqualTo(1.0);
        assertThat(registry.get(CampaignMetrics.CHUNKS).tag("state", "committed").gauge().value()).isEqualTo(8.0);

        metrics.forget("ns", "items");
        assertThat(registry.getMeters()).isEmpty();
    }
}
