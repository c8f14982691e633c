package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.ReconcileMode;
import io.dpone.backfill.core.campaign.ReconcileSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Whether a published campaign runs one more reconciliation pass before its handoff (issue 38, ADR 0057), judged from
 * the passes the ledger holds, so a driver that crashed anywhere decides the same again: an interrupted pass is
 * finished first; a finished one is never run again.
 */
public final class ReconcileSchedule {
    private ReconcileSchedule() {
    }

    /** Empty: run (or finish) a pass now; else why the passes are done, as the handoff's message says it. */
    public static Optional<String> done(ReconcileSpec spec, List<HandoffPasses.Pass> passes, Instant now) {
        ReconcileMode mode = spec == null || spec.getMode() == null ? ReconcileMode.NONE : spec.getMode();
        if (mode == ReconcileMode.NONE) {
            return Optional.of("spec.reconcile.mode is none");
        }
        if (!passes.isEmpty() && !passes.get(passes.size() - 1).finished()) {
            return Optional.empty(); // an interrupted pass: finished before anything else is judged
        }
        Optional<HandoffPasses.Pass> last = HandoffPasses.Pass.lastFinished(passes);
        if (last.isEmpty()) {
            return Optional.empty();
        }
        if (mode == ReconcileMode.ONCE) {
            return Optional.of("pass " + last.get().pass() + " ran (reconcile: once)");
        }
        int maxPasses = spec.getMaxPasses() == null ? ReconcileSpec.DEFAULT_MAX_PASSES : spec.getMaxPasses();
        if (spec.getMaxChangedRows() != null && last.get().changed() <= spec.getMaxChangedRows()) {
            return Optional.of("pass " + last.get().pass() + " changed " + last.get().changed() + " row(s), at most"
                    + " maxChangedRows " + spec.getMaxChangedRows());
        }
        Optional<Duration> deadline = spec.deadlineDuration();
        if (deadline.isPresent() && !now.isBefore(passes.get(0).startedAt().plus(deadline.get()))) {
            return Optional.of("the deadline " + spec.getDeadline() + " since pass " + passes.get(0).pass()
                    + " started has passed");
        }
        if (passes.size() >= maxPasses) {
            return Optional.of(passes.size() + " pass(es) ran, maxPasses " + maxPasses);
        }
        return Optional.empty();
    }
}
