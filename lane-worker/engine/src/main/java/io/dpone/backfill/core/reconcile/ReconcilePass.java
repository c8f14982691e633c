package io.dpone.backfill.core.reconcile;

import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One reconciliation pass (issue 38, ADR 0054), range by range: the plan's key ranges (or the whole table for a
 * physical plan, whose rows no key range places), each applied in one target transaction with its receipt. A pass
 * interrupted anywhere is resumed by running it again: ranges with a receipt are skipped, the rest are read under the
 * new snapshot, and the pass keeps the anchor it began with (so the next pass repeats, never misses, what changed
 * while it was down).
 */
public final class ReconcilePass {
    private final ReconcileLedger ledger;
    private final FaultPoints faults;
    private final Consumer<String> log;

    public ReconcilePass(ReconcileLedger ledger, FaultPoints faults, Consumer<String> log) {
        this.ledger = ledger;
        this.faults = faults;
        this.log = log;
    }

    /** The ranges a pass walks: the plan's chunks, or one whole-table range (null) for a physical plan. */
    public static List<ChunkRange> ranges(ChunkPlan plan) {
        if (!plan.kind().keyed()) {
            List<ChunkRange> whole = new ArrayList<>();
            whole.add(null);
            return whole;
        }
        return plan.chunks();
    }

    /**
     * Runs (or resumes) the campaign's pass from {@code since}; {@code source} holds the pass's snapshot.
     *
     * @param keeper renews the campaign lease before each range, or says it was lost
     * @return the finished pass
     */
    public PassRecord run(CampaignLease lease, ChunkPlan plan, String since, PassSource source, PassTarget target,
                          LeaseKeeper keeper) throws Exception {
        PassRecord pass = ledger.openPass(lease, since, source.anchor());
        Set<Integer> done = ledger.reconciledRanges(lease.runKey(), pass.pass());
        List<String> accepted = ledger.keysDecided(lease.runKey(), KeyDecision.ACCEPT);
        List<ChunkRange> ranges = ranges(plan);
        log.accept("pass " + pass.pass() + ": from anchor " + pass.since() + " to " + pass.anchor() + ", "
                + (ranges.size() - done.size()) + " of " + ranges.size() + " range(s) to reconcile"
                + (accepted.isEmpty() ? "" : ", " + accepted.size() + " accepted key(s) to write"));
        for (int id = 0; id < ranges.size(); id++) {
            if (done.contains(id)) {
                continue;
            }
            // Renewed before each range: a pass outlives the lease's time to live, and a lost lease stops it here.
            keeper.renew(lease);
            ChunkRange range = ranges.get(id);
            KeySetDigest sourceKeys = source.keyDigest(range);
            ChunkReconciled outcome;
            // The pass's own since, not the snapshot's: a resumed pass reads from where it began.
            try (ChunkRows changed = source.changedRows(range, pass.since(), accepted)) {
                outcome = target.apply(lease, pass.pass(), id, range, changed, sourceKeys, new PassTarget.KeyStream() {
                    @Override
                    public KeyBuckets buckets() throws Exception {
                        return source.keyBuckets(range);
                    }

                    @Override
                    public ChunkRows open(java.util.Set<Integer> buckets) throws Exception {
                        return source.keys(range, buckets);
                    }
                });
            }
            faults.reached(FaultPoint.AFTER_COMMIT, id);
            if (outcome.upserted() + outcome.deleted() + outcome.queued() > 0) {
                log.accept("pass " + pass.pass() + " range " + id + ": " + outcome.upserted() + " upserted, "
                        + outcome.deleted() + " deleted, " + outcome.queued() + " queued");
            }
        }
        return ledger.finishPass(lease, pass.pass());
    }

    /** Keeps the campaign lease alive through a pass. */
    @FunctionalInterface
    public interface LeaseKeeper {
        /** @throws io.dpone.backfill.core.engine.LeaseLostException when the lease was lost */
        void renew(CampaignLease lease);
    }
}
