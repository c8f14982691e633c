package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.ReconciliationStatus;
import io.dpone.backfill.core.reconcile.PassRecord;
import io.dpone.backfill.core.reconcile.QueuedKey;
import io.dpone.backfill.core.reconcile.ReconcileLedger;

import java.util.List;
import java.util.Optional;

/**
 * The campaign status's reconciliation section (issue 38), projected from the pass ledger and bounded as
 * {@link ReconciliationStatus} says; and the pass the handoff's anchor comes from (ADR 0057).
 */
public final class ReconciliationProjection {
    private ReconciliationProjection() {
    }

    /**
     * The campaign's pass ledger over {@code state}; empty for a target whose connector cannot reconcile yet, whose
     * status then simply has no section.
     */
    public static Optional<ReconcileLedger> ledgerOf(BackfillCampaignSpec spec, java.sql.Connection state) {
        try {
            return Optional.of(Connectors.target(spec.getTarget().getType()).reconcileLedger(state, spec.getState().getSchema()));
        } catch (UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    /** Adds the section to {@code status} when a pass ever began; names the pass the handoff receipt's anchor is. */
    public static BackfillCampaignStatus into(BackfillCampaignStatus status, BackfillCampaignSpec spec, ReconcileLedger passes,
                                              String runKey) {
        of(spec, passes, runKey).ifPresent(r -> {
            status.setReconciliation(r);
            if (status.getHandoff() != null && status.getHandoff().getReceiptId() != null) {
                List<PassRecord> all = passes.passes(runKey);
                for (int i = all.size() - 1; i >= 0; i--) {
                    if (all.get(i).finished() && all.get(i).anchor().equals(status.getHandoff().getAnchorXmin())) {
                        status.getHandoff().setFromPass(all.get(i).pass());
                        break;
                    }
                }
            }
        });
        return status;
    }

    /** Empty while no pass began (or the pass tables do not exist). */
    public static Optional<ReconciliationStatus> of(BackfillCampaignSpec spec, ReconcileLedger passes, String runKey) {
        if (!passes.present()) {
            return Optional.empty();
        }
        List<PassRecord> all = passes.passes(runKey);
        if (all.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(of(spec, all, passes.undecided(runKey), passes.queue(runKey, ReconciliationStatus.MAX_QUEUE_SAMPLE)));
    }

    /** The section from what the pass ledger holds: every pass (oldest first), the undecided count, a queue sample. */
    public static ReconciliationStatus of(BackfillCampaignSpec spec, List<PassRecord> all, long undecided, List<QueuedKey> queue) {
        ReconciliationStatus r = new ReconciliationStatus();
        r.setMode(spec.reconcileMode().wireName());
        r.setPassCount(all.size());
        r.setUpserted(all.stream().mapToLong(p -> p.totals().upserted()).sum());
        r.setDeleted(all.stream().mapToLong(p -> p.totals().deleted()).sum());
        r.setQueuedByPasses(all.stream().mapToLong(p -> p.totals().queued()).sum());
        all.subList(Math.max(0, all.size() - ReconciliationStatus.MAX_PASSES_SHOWN), all.size()).forEach(p -> r.getPasses()
                .add(new ReconciliationStatus.Pass(p.pass(), p.since(), p.anchor(), p.finished(), p.totals().upserted(),
                        p.totals().deleted(), p.totals().queued(), !p.totals().keysCompared())));
        r.setQueue(undecided);
        queue.stream().filter(q -> q.decision() == null).limit(ReconciliationStatus.MAX_QUEUE_SAMPLE)
                .forEach(q -> r.getQueueSample().add(ReconciliationStatus.boundedKey(q.key())));
        Optional<PassRecord> last = PassRecord.lastFinished(all);
        last.ifPresent(p -> {
            r.setSyncAnchor(p.anchor());
            r.setSyncAnchorFromPass(p.pass());
        });
        r.setCaughtUp(!all.isEmpty() && all.get(all.size() - 1).finished() && undecided == 0);
        return r;
    }
}
