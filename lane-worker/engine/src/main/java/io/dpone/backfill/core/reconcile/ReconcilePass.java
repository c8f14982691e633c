package io.dpone.backfill.core.reconcile;

import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One reconciliation pass (issue 38, ADR 0054): a survey reads each side once, then the plan's key ranges (or the
 * whole table for a physical plan, whose rows no key range places) are applied, each in one target transaction with
 * its receipt. A pass
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
        if (done.size() < ranges.size()) {
            survey(pass, ranges, accepted, source, target);
        }
        for (int id = 0; id < ranges.size(); id++) {
            if (done.contains(id)) {
                continue;
            }
            // Renewed before each range: a pass outlives the lease's time to live, and a lost lease stops it here.
            keeper.renew(lease);
            ChunkReconciled outcome = target.apply(lease, pass.pass(), id, ranges.get(id));
            faults.reached(FaultPoint.AFTER_COMMIT, id);
            if (outcome.upserted() + outcome.deleted() + outcome.queued() > 0) {
                log.accept("pass " + pass.pass() + " range " + id + ": " + outcome.upserted() + " upserted, "
                        + outcome.deleted() + " deleted, " + outcome.queued() + " queued");
            }
        }
        return ledger.finishPass(lease, pass.pass());
    }

    /**
     * Reads each side once for the whole pass: the changed rows, both sides' key digests per range and bucket, and the
     * keys of the buckets that differ. A resumed pass surveys again under its new snapshot, from the pass's own since
     * (so it repeats, never misses, what changed while it was down).
     */
    private void survey(PassRecord pass, List<ChunkRange> ranges, List<String> accepted, PassSource source,
                        PassTarget target) throws Exception {
        long started = System.nanoTime();
        RangeBuckets differing = target.survey(ranges, () -> source.changedRows(pass.since(), accepted),
                () -> source.keyDigests(ranges));
        long compared = System.nanoTime();
        if (!differing.isEmpty()) {
            target.stageKeys(ranges, () -> source.keys(ranges, differing));
        }
        long done = System.nanoTime();
        log.accept(String.format("pass %d: surveyed in %.1f s (changed rows and key digests %.1f s, keys of %d differing"
                + " bucket(s) %.1f s)", pass.pass(), (done - started) / 1e9, (compared - started) / 1e9, differing.size(),
                (done - compared) / 1e9));
    }

    /** Keeps the campaign lease alive through a pass. */
    @FunctionalInterface
    public interface LeaseKeeper {
        /** @throws io.dpone.backfill.core.engine.LeaseLostException when the lease was lost */
        void renew(CampaignLease lease);
    }
}
