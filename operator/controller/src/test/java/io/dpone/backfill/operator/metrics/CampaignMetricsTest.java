package io.dpone.backfill.operator.metrics;

import io.dpone.backfill.testsupport.RepositoryRoot;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignProgress;
import io.dpone.backfill.core.campaign.PublicationStatus;
import io.dpone.backfill.operator.driver.DriveOutcome;
import io.dpone.backfill.operator.lanes.LaneReport;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    @Test
    void phaseEtaAndLaneGaugesFollowTheLastPassAndCountersStartAtZero() {
        BackfillCampaignStatus loading = status(CampaignPhase.Loading, 3, "pending", null);
        loading.getProgress().setEtaSeconds(120L);
        metrics.record("ns", "items", null, loading, DriveOutcome.ChunkActivity.NONE);
        assertThat(registry.get(CampaignMetrics.PHASE).tag("phase", "Loading").gauge().value()).isEqualTo(1.0);
        assertThat(registry.get(CampaignMetrics.PHASE).tag("phase", "Blocked").gauge().value()).isZero();
        assertThat(registry.get(CampaignMetrics.PHASE).gauges()).hasSize(CampaignPhase.values().length);
        assertThat(registry.get(CampaignMetrics.ETA).gauge().value()).isEqualTo(120.0);
        assertThat(registry.get(CampaignMetrics.LANE_POD_FAILURES).gauge().value()).isZero();
        // Present before anything happened, so the first expiration or failed validation is an increase from 0.
        assertThat(registry.get(CampaignMetrics.LEASE_EXPIRATIONS).tag("kind", "chunk").counter().count()).isZero();
        assertThat(registry.get(CampaignMetrics.LEASE_EXPIRATIONS).tag("kind", "campaign").counter().count()).isZero();
        assertThat(registry.get(CampaignMetrics.VALIDATIONS).tag("outcome", "failed").counter().count()).isZero();

        metrics.lanes("ns", "items", new LaneReport(List.of(), List.of("items-lane-0-1 (exit 1)"), 2, 3, false, 4,
                List.of("items-lane-1-0: ImagePullBackOff")));
        BackfillCampaignStatus blocked = status(CampaignPhase.Blocked, 8, "failed", null);
        metrics.record("ns", "items", loading, blocked, DriveOutcome.ChunkActivity.NONE);
        assertThat(registry.get(CampaignMetrics.PHASE).tag("phase", "Loading").gauge().value()).isZero();
        assertThat(registry.get(CampaignMetrics.PHASE).tag("phase", "Blocked").gauge().value()).isEqualTo(1.0);
        assertThat(registry.get(CampaignMetrics.ETA).gauge().value()).isNaN();
        assertThat(registry.get(CampaignMetrics.LANE_POD_FAILURES).gauge().value()).isEqualTo(2.0);
        assertThat(registry.get(CampaignMetrics.LANE_PODS_STUCK).gauge().value()).isEqualTo(1.0);
        assertThat(registry.get(CampaignMetrics.VALIDATIONS).tag("outcome", "failed").counter().count()).isEqualTo(1.0);
    }

    @Test
    void theThrottledGaugeIsOneWhileTheLanesWaitForTheCeilingAndTheCeilingGaugeSaysWhichOne() {
        BackfillCampaignStatus unthrottled = status(CampaignPhase.Loading, 3, "pending", null);
        metrics.record("ns", "items", null, unthrottled, DriveOutcome.ChunkActivity.NONE);
        assertThat(registry.get(CampaignMetrics.THROTTLED).tag("reason", "rate_ceiling").gauge().value()).isZero();
        assertThat(registry.get(CampaignMetrics.ROWS_PER_SECOND_CEILING).gauge().value()).as("no ceiling").isNaN();

        BackfillCampaignStatus throttled = status(CampaignPhase.Loading, 3, "pending", null);
        throttled.setThrottle(io.dpone.backfill.core.engine.ThrottleJudge.status(
                new io.dpone.backfill.core.ledger.ThrottleSetting(50, 0, 4), CampaignPhase.Loading, 50.0, false));
        metrics.record("ns", "items", unthrottled, throttled, DriveOutcome.ChunkActivity.NONE);
        assertThat(registry.get(CampaignMetrics.THROTTLED).tag("reason", "rate_ceiling").gauge().value()).isEqualTo(1.0);
        assertThat(registry.get(CampaignMetrics.ROWS_PER_SECOND_CEILING).gauge().value()).isEqualTo(50.0);

        BackfillCampaignStatus below = status(CampaignPhase.Loading, 3, "pending", null);
        below.setThrottle(io.dpone.backfill.core.engine.ThrottleJudge.status(
                new io.dpone.backfill.core.ledger.ThrottleSetting(500, 0, 4), CampaignPhase.Loading, 50.0, false));
        metrics.record("ns", "items", throttled, below, DriveOutcome.ChunkActivity.NONE);
        assertThat(registry.get(CampaignMetrics.THROTTLED).tag("reason", "rate_ceiling").gauge().value()).isZero();
        assertThat(registry.get(CampaignMetrics.ROWS_PER_SECOND_CEILING).gauge().value()).isEqualTo(500.0);
    }

    @Test
    void reconciliationGaugesAreNaNBeforeAnyPassAndFollowTheStatusSectionAfter() {
        BackfillCampaignStatus published = status(CampaignPhase.Published, 8, "passed", "r-1");
        metrics.record("ns", "items", null, published, DriveOutcome.ChunkActivity.NONE);
        assertThat(registry.get(CampaignMetrics.RECONCILE_QUEUE).gauge().value()).as("no pass yet: nothing to alert on").isNaN();
        assertThat(registry.get(CampaignMetrics.RECONCILE_CAUGHT_UP).gauge().value()).isNaN();

        BackfillCampaignStatus reconciled = status(CampaignPhase.HandoffCommitted, 8, "passed", "r-1");
        var r = new io.dpone.backfill.core.campaign.ReconciliationStatus();
        r.setPassCount(2);
        r.setUpserted(40L);
        r.setDeleted(3L);
        r.setQueuedByPasses(2L);
        r.setQueue(2L);
        r.setCaughtUp(false);
        reconciled.setReconciliation(r);
        metrics.record("ns", "items", published, reconciled, DriveOutcome.ChunkActivity.NONE);
        assertThat(registry.get(CampaignMetrics.RECONCILE_QUEUE).gauge().value()).isEqualTo(2.0);
        assertThat(registry.get(CampaignMetrics.RECONCILE_PASSES).gauge().value()).isEqualTo(2.0);
        assertThat(registry.get(CampaignMetrics.RECONCILE_ROWS).tag("change", "upserted").gauge().value()).isEqualTo(40.0);
        assertThat(registry.get(CampaignMetrics.RECONCILE_ROWS).tag("change", "deleted").gauge().value()).isEqualTo(3.0);
        assertThat(registry.get(CampaignMetrics.RECONCILE_ROWS).tag("change", "queued").gauge().value()).isEqualTo(2.0);
        assertThat(registry.get(CampaignMetrics.RECONCILE_CAUGHT_UP).gauge().value()).isZero();
    }

    /** The chart's alerts and dashboard query these names; each must be a series the Prometheus registry exposes. */
    @Test
    void everyMetricTheChartQueriesIsExportedUnderThatName() throws IOException {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CampaignMetrics exported = new CampaignMetrics(prometheus);
        BackfillCampaignStatus loading = status(CampaignPhase.Loading, 3, "pending", null);
        exported.record("ns", "items", null, loading, new DriveOutcome.ChunkActivity(List.of(1.5), 1));
        exported.lanes("ns", "items", LaneReport.idle(0, 3, 4, List.of()));
        Set<String> series = new TreeSet<>();
        prometheus.scrape().lines().filter(l -> !l.startsWith("#")).forEach(l -> series.add(l.replaceAll("[{ ].*", "")));

        Set<String> queried = new TreeSet<>();
        Path chart = RepositoryRoot.resolve("helm", "backfill-operator");
        for (Path file : List.of(chart.resolve("templates/prometheusrule.yaml"), chart.resolve("dashboards/backfill-operator.json"))) {
            Matcher m = Pattern.compile("backfill_[a-z_]+").matcher(Files.readString(file));
            while (m.find()) {
                queried.add(m.group());
            }
        }
        assertThat(queried).contains("backfill_campaign_phase", "backfill_lease_expirations_total", "backfill_chunk_duration_seconds_bucket");
        assertThat(series).containsAll(queried);
    }
}
