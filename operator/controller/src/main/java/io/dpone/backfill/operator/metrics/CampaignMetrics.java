package io.dpone.backfill.operator.metrics;

import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignProgress;
import io.dpone.backfill.operator.driver.DriveOutcome;
import io.dpone.backfill.operator.lanes.LaneReport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Prometheus metrics per campaign (tags {@code namespace}, {@code campaign}): chunks by state, rows loaded, rows/s,
 * ETA, phase, lane pod failures, an observed chunk-duration histogram, lease expirations, validation and publication
 * outcomes. Gauges read the last status built; a deleted campaign's meters are removed, so cardinality follows the
 * live campaigns. The chart's PrometheusRule alerts on these names (CampaignMetricsTest checks it uses no other).
 */
public final class CampaignMetrics {
    static final String CHUNKS = "backfill_campaign_chunks";
    static final String ROWS_LOADED = "backfill_campaign_rows_loaded";
    static final String ROWS_PER_SECOND = "backfill_campaign_rows_per_second";
    static final String CHUNK_DURATION = "backfill_chunk_duration_seconds";
    static final String LEASE_EXPIRATIONS = "backfill_lease_expirations";
    static final String VALIDATIONS = "backfill_validations";
    static final String PUBLICATIONS = "backfill_publications";
    static final String ETA = "backfill_campaign_eta_seconds";
    static final String PHASE = "backfill_campaign_phase";
    static final String LANE_POD_FAILURES = "backfill_lane_pod_failures";
    static final String LANE_PODS_STUCK = "backfill_lane_pods_stuck";
    /** 1 while a validated campaign waits on purpose, by {@code reason}: {@code approval} or {@code window}. */
    static final String WAITING = "backfill_campaign_waiting";
    private static final Map<String, String> WAITING_REASONS = Map.of("approval", CampaignConditions.AWAITING_APPROVAL,
            "window", CampaignConditions.AWAITING_WINDOW);
    /**
     * 1 while the lanes wait for a throttle (issue 28), by {@code reason}: {@code rate_ceiling}, {@code source_guard},
     * {@code outside_load_window}.
     */
    static final String THROTTLED = "backfill_campaign_throttled";
    /** The rows/s ceiling in force; NaN while there is none. */
    static final String ROWS_PER_SECOND_CEILING = "backfill_campaign_rows_per_second_ceiling";
    private static final Map<String, String> THROTTLED_REASONS = Map.of("rate_ceiling",
            io.dpone.backfill.core.campaign.ThrottleStatus.RATE_CEILING, "source_guard",
            io.dpone.backfill.core.campaign.ThrottleStatus.SOURCE_GUARD, "outside_load_window",
            io.dpone.backfill.core.campaign.ThrottleStatus.OUTSIDE_LOAD_WINDOW);
    /** Keys in the reconciliation queue waiting for a person's decision (issue 38); NaN before any pass. */
    static final String RECONCILE_QUEUE = "backfill_reconcile_queue_keys";
    /** Reconciliation passes that began; NaN before any pass. */
    static final String RECONCILE_PASSES = "backfill_reconcile_passes";
    /** Rows the passes wrote together, by {@code change}: {@code upserted}, {@code deleted}, {@code queued}. */
    static final String RECONCILE_ROWS = "backfill_reconcile_rows";
    /** 1 when the last pass finished and no key waits, else 0; NaN before any pass. */
    static final String RECONCILE_CAUGHT_UP = "backfill_reconcile_caught_up";
    private static final List<String> STATES = List.of("pending", "running", "committed", "failed");

    private final MeterRegistry registry;
    private final Map<String, Live> live = new ConcurrentHashMap<>();

    /** What the gauges of one campaign read: the last status built and the last lane report. */
    private static final class Live {
        volatile CampaignProgress progress = new CampaignProgress();
        volatile CampaignPhase phase;
        volatile LaneReport lanes;
        /** The Reconciling condition's reason of the last status. */
        volatile String reconcilingReason;
        /** The throttle of the last status; null while no ceiling is in force. */
        volatile io.dpone.backfill.core.campaign.ThrottleStatus throttle;
        /** The reconciliation section of the last status; null before any pass. */
        volatile io.dpone.backfill.core.campaign.ReconciliationStatus reconciliation;
    }

    public CampaignMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** After a pass: gauges follow the new status; counters count what changed from the previous one. */
    public void record(String namespace, String campaign, BackfillCampaignStatus before, BackfillCampaignStatus after,
                       DriveOutcome.ChunkActivity activity) {
        Tags tags = Tags.of("namespace", namespace, "campaign", campaign);
        Live holder = live(namespace, campaign);
        if (after.getProgress() != null) {
            holder.progress = after.getProgress();
        }
        holder.phase = after.getPhase();
        holder.throttle = after.getThrottle();
        holder.reconciliation = after.getReconciliation();
        holder.reconcilingReason = after.getConditions() == null ? null : after.getConditions().stream()
                .filter(c -> CampaignConditions.RECONCILING.equals(c.getType())).map(c -> c.getReason()).findFirst().orElse(null);
        if (activity != null) {
            DistributionSummary durations = DistributionSummary.builder(CHUNK_DURATION).baseUnit("seconds")
                    .description("Observed time from a chunk seen running to seen committed (resolution: the reconcile interval)")
                    .publishPercentileHistogram().tags(tags).register(registry);
            activity.committedDurationsSeconds().forEach(durations::record);
            if (activity.leaseExpirations() > 0) {
                leaseExpirations(tags, "chunk").increment(activity.leaseExpirations());
            }
        }
        String validationBefore = before == null || before.getPublication() == null ? null : before.getPublication().getValidation();
        String validationAfter = after.getPublication() == null ? null : after.getPublication().getValidation();
        if (("passed".equals(validationAfter) || "failed".equals(validationAfter)) && !Objects.equals(validationBefore, validationAfter)) {
            validations(tags, validationAfter).increment();
        }
        String publicationOutcome = publicationOutcome(before, after);
        if (publicationOutcome != null) {
            Counter.builder(PUBLICATIONS).description("Publication outcomes: published, refused, rolled_back").tags(tags)
                    .tag("outcome", publicationOutcome).register(registry).increment();
        }
    }

    /** After a pass that supervised lanes: failed pods counted against the budget, and pods that cannot start. */
    public void lanes(String namespace, String campaign, LaneReport report) {
        live(namespace, campaign).lanes = report;
    }

    /** The operator lost a campaign lease it held (another driver took over). */
    public void campaignLeaseLost(String namespace, String campaign) {
        live(namespace, campaign);
        leaseExpirations(Tags.of("namespace", namespace, "campaign", campaign), "campaign").increment();
    }

    public void forget(String namespace, String campaign) {
        live.remove(namespace + "/" + campaign);
        for (Meter m : List.copyOf(registry.getMeters())) {
            if (namespace.equals(m.getId().getTag("namespace")) && campaign.equals(m.getId().getTag("campaign"))) {
                registry.remove(m);
            }
        }
    }

    private Counter leaseExpirations(Tags tags, String kind) {
        return Counter.builder(LEASE_EXPIRATIONS).description("Chunk leases seen expired, and campaign leases lost by this operator")
                .tags(tags).tag("kind", kind).register(registry);
    }

    private Live live(String namespace, String campaign) {
        return live.computeIfAbsent(namespace + "/" + campaign, k -> register(Tags.of("namespace", namespace, "campaign", campaign)));
    }

    private Live register(Tags tags) {
        Live holder = new Live();
        for (String state : STATES) {
            Gauge.builder(CHUNKS, holder, h -> chunks(h.progress, state)).description("Chunks of the campaign by state")
                    .tags(tags).tag("state", state).register(registry);
        }
        Gauge.builder(ROWS_LOADED, holder, h -> h.progress.getRowsLoaded()).description("Rows committed into the load table")
                .tags(tags).register(registry);
        Gauge.builder(ROWS_PER_SECOND, holder, h -> h.progress.getRowsPerSecond()).description("Current load rate")
                .tags(tags).register(registry);
        // NaN (no sample value an alert compares true against) while no ETA is known.
        Gauge.builder(ETA, holder, h -> h.progress.getEtaSeconds() == null ? Double.NaN : h.progress.getEtaSeconds())
                .description("Estimated seconds until every chunk is committed").tags(tags).register(registry);
        for (CampaignPhase phase : CampaignPhase.values()) {
            Gauge.builder(PHASE, holder, h -> h.phase == phase ? 1 : 0).description("1 for the campaign's current phase, else 0")
                    .tags(tags).tag("phase", phase.name()).register(registry);
        }
        WAITING_REASONS.forEach((reason, conditionReason) -> Gauge.builder(WAITING, holder,
                        h -> conditionReason.equals(h.reconcilingReason) ? 1 : 0)
                .description("1 while a validated campaign waits on purpose: for a person's approval or its publication window")
                .tags(tags).tag("reason", reason).register(registry));
        THROTTLED_REASONS.forEach((reason, statusReason) -> Gauge.builder(THROTTLED, holder,
                        h -> h.throttle != null && statusReason.equals(h.throttle.getReason()) ? 1 : 0)
                .description("1 while the lanes wait for a throttle: the campaign's rate ceiling, or the source guard")
                .tags(tags).tag("reason", reason).register(registry));
        Gauge.builder(ROWS_PER_SECOND_CEILING, holder, h -> h.throttle == null || h.throttle.getRowsPerSecond() == null
                        ? Double.NaN : h.throttle.getRowsPerSecond())
                .description("Rows per second the campaign's lanes read together at most (spec.throttle.rowsPerSecond)")
                .tags(tags).register(registry);
        Gauge.builder(RECONCILE_QUEUE, holder, h -> reconciled(h, r -> r.getQueue()))
                .description("Keys someone else wrote in the published table after publication, waiting for a decision")
                .tags(tags).register(registry);
        Gauge.builder(RECONCILE_PASSES, holder, h -> reconciled(h, r -> r.getPassCount() == null ? null : r.getPassCount().longValue()))
                .description("Reconciliation passes that began").tags(tags).register(registry);
        Map.<String, java.util.function.Function<io.dpone.backfill.core.campaign.ReconciliationStatus, Long>>of(
                "upserted", io.dpone.backfill.core.campaign.ReconciliationStatus::getUpserted,
                "deleted", io.dpone.backfill.core.campaign.ReconciliationStatus::getDeleted,
                "queued", io.dpone.backfill.core.campaign.ReconciliationStatus::getQueuedByPasses)
                .forEach((change, read) -> Gauge.builder(RECONCILE_ROWS, holder, h -> reconciled(h, read))
                        .description("Rows the reconciliation passes upserted, deleted or queued, all passes together")
                        .tags(tags).tag("change", change).register(registry));
        Gauge.builder(RECONCILE_CAUGHT_UP, holder, h -> reconciled(h, r -> r.getCaughtUp() == null ? null
                        : Boolean.TRUE.equals(r.getCaughtUp()) ? 1L : 0L))
                .description("1 when the last reconciliation pass finished and no key waits for a decision")
                .tags(tags).register(registry);
        Gauge.builder(LANE_POD_FAILURES, holder, h -> h.lanes == null ? 0 : h.lanes.failures())
                .description("Failed lane pods of the current run, counted against spec.lane.maxPodFailures").tags(tags).register(registry);
        Gauge.builder(LANE_PODS_STUCK, holder, h -> h.lanes == null ? 0 : h.lanes.stuck().size())
                .description("Lane pods that cannot start (image pull, missing Secret key, crash loop)").tags(tags).register(registry);
        // Counters exist from the start at 0, so the first lease expiration or failed validation is an increase.
        leaseExpirations(tags, "chunk");
        leaseExpirations(tags, "campaign");
        validations(tags, "passed");
        validations(tags, "failed");
        return holder;
    }

    /** NaN (no sample an alert compares true against) while no pass began. */
    private static double reconciled(Live h, java.util.function.Function<io.dpone.backfill.core.campaign.ReconciliationStatus, Long> read) {
        io.dpone.backfill.core.campaign.ReconciliationStatus r = h.reconciliation;
        Long value = r == null ? null : read.apply(r);
        return value == null ? Double.NaN : value;
    }

    private Counter validations(Tags tags, String outcome) {
        return Counter.builder(VALIDATIONS).description("Validation outcomes of loaded tables").tags(tags).tag("outcome", outcome)
                .register(registry);
    }

    private static double chunks(CampaignProgress p, String state) {
        return switch (state) {
            case "pending" -> p.getPendingChunks();
            case "running" -> p.getRunningChunks();
            case "committed" -> p.getCommittedChunks();
            default -> p.getFailedChunks();
        };
    }

    static String publicationOutcome(BackfillCampaignStatus before, BackfillCampaignStatus after) {
        String receiptBefore = before == null || before.getPublication() == null ? null : before.getPublication().getReceiptId();
        String receiptAfter = after.getPublication() == null ? null : after.getPublication().getReceiptId();
        String phaseBefore = before == null || before.getPublication() == null ? null : before.getPublication().getPhase();
        String phaseAfter = after.getPublication() == null ? null : after.getPublication().getPhase();
        if ("rolled_back".equals(phaseAfter) && !"rolled_back".equals(phaseBefore)) {
            return "rolled_back";
        }
        if (receiptAfter != null && receiptBefore == null) {
            return "published";
        }
        if (after.getPhase() == CampaignPhase.Blocked && before != null && before.getPhase() == CampaignPhase.Publishing) {
            return "refused";
        }
        return null;
    }
}
