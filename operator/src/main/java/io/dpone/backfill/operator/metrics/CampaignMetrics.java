package io.dpone.backfill.operator.metrics;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignProgress;
import io.dpone.backfill.operator.driver.DriveOutcome;
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
import java.util.concurrent.atomic.AtomicReference;

/**
 * Prometheus metrics per campaign (tags {@code namespace}, {@code campaign}): chunks by state, rows loaded, rows/s,
 * an observed chunk-duration histogram, lease expirations, validation and publication outcomes. Gauges read the
 * last status built; a deleted campaign's meters are removed, so cardinality follows the live campaigns.
 */
public final class CampaignMetrics {
    static final String CHUNKS = "backfill_campaign_chunks";
    static final String ROWS_LOADED = "backfill_campaign_rows_loaded";
    static final String ROWS_PER_SECOND = "backfill_campaign_rows_per_second";
    static final String CHUNK_DURATION = "backfill_chunk_duration_seconds";
    static final String LEASE_EXPIRATIONS = "backfill_lease_expirations";
    static final String VALIDATIONS = "backfill_validations";
    static final String PUBLICATIONS = "backfill_publications";
    private static final List<String> STATES = List.of("pending", "running", "committed", "failed");

    private final MeterRegistry registry;
    private final Map<String, AtomicReference<CampaignProgress>> progress = new ConcurrentHashMap<>();

    public CampaignMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** After a pass: gauges follow the new status; counters count what changed from the previous one. */
    public void record(String namespace, String campaign, BackfillCampaignStatus before, BackfillCampaignStatus after,
                       DriveOutcome.ChunkActivity activity) {
        Tags tags = Tags.of("namespace", namespace, "campaign", campaign);
        AtomicReference<CampaignProgress> holder = progress.computeIfAbsent(namespace + "/" + campaign, k -> register(tags));
        if (after.getProgress() != null) {
            holder.set(after.getProgress());
        }
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
            Counter.builder(VALIDATIONS).description("Validation outcomes of loaded tables").tags(tags).tag("outcome", validationAfter)
                    .register(registry).increment();
        }
        String publicationOutcome = publicationOutcome(before, after);
        if (publicationOutcome != null) {
            Counter.builder(PUBLICATIONS).description("Publication outcomes: published, refused, rolled_back").tags(tags)
                    .tag("outcome", publicationOutcome).register(registry).increment();
        }
    }

    /** The operator lost a campaign lease it held (another driver took over). */
    public void campaignLeaseLost(String namespace, String campaign) {
        leaseExpirations(Tags.of("namespace", namespace, "campaign", campaign), "campaign").increment();
    }

    public void forget(String namespace, String campaign) {
        progress.remove(namespace + "/" + campaign);
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

    private AtomicReference<CampaignProgress> register(Tags tags) {
        AtomicReference<CampaignProgress> holder = new AtomicReference<>(new CampaignProgress());
        for (String state : STATES) {
            Gauge.builder(CHUNKS, holder, h -> chunks(h.get(), state)).description("Chunks of the campaign by state")
                    .tags(tags).tag("state", state).register(registry);
        }
        Gauge.builder(ROWS_LOADED, holder, h -> h.get().getRowsLoaded()).description("Rows committed into the load table")
                .tags(tags).register(registry);
        Gauge.builder(ROWS_PER_SECOND, holder, h -> h.get().getRowsPerSecond()).description("Current load rate")
                .tags(tags).register(registry);
        return holder;
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
