package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.ledger.CampaignLease;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The reconciliation passes a campaign with {@code spec.reconcile} runs between publication and the handoff (issue 38,
 * ADR 0057). The engine decides whether one more pass runs ({@link ReconcileSchedule}) and which anchor the handoff
 * carries; the wiring runs the pass (its connections and adapters). A port of its own, with a summary of its own: the
 * pass loop's package depends on the lane protocol, which depends on this one.
 */
public interface HandoffPasses {
    /** For engines without a wiring (fakes): no pass can run, and a campaign asking for one says so. */
    HandoffPasses NONE = new HandoffPasses() {
        @Override
        public List<Pass> passes(String runKey) {
            return List.of();
        }

        @Override
        public Pass run(CampaignLease lease) {
            throw new IllegalStateException("this driver cannot run reconciliation passes");
        }
    };

    /** The campaign's passes, oldest first; none before the first ran. */
    List<Pass> passes(String runKey);

    /** Runs (or resumes) the campaign's next pass under {@code lease}; returns it finished. */
    Pass run(CampaignLease lease);

    /** One pass as the engine weighs it. */
    record Pass(int pass, String anchor, Instant startedAt, boolean finished, long upserted, long deleted, long queued) {
        /** Rows the pass wrote into the published table: what {@code maxChangedRows} bounds. */
        public long changed() {
            return upserted + deleted;
        }

        /** The newest finished pass of {@code passes} (oldest first). */
        public static Optional<Pass> lastFinished(List<Pass> passes) {
            for (int i = passes.size() - 1; i >= 0; i--) {
                if (passes.get(i).finished()) {
                    return Optional.of(passes.get(i));
                }
            }
            return Optional.empty();
        }
    }
}
