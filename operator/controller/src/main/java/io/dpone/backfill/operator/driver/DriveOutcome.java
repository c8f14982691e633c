package io.dpone.backfill.operator.driver;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.operator.lanes.LaneReport;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** What one pass on the engine came to. The status, events and metrics are built from it; it holds no Kubernetes call. */
public sealed interface DriveOutcome {
    /** Something a person should hear of, turned into one Event (reason and message). */
    record Note(String reason, String message, boolean warning) {
    }

    /**
     * The engine stepped: every step of the pass (one event per phase transition), the ledger's projection, what
     * the lanes did, and notes for events.
     */
    record Stepped(List<StepResult> steps, BackfillCampaignStatus projection, LaneReport lanes, Optional<RollbackReceipt> rollback,
                   List<Note> notes, ChunkActivity activity) implements DriveOutcome {
        public Stepped {
            steps = List.copyOf(steps);
            notes = List.copyOf(notes);
        }

        /** The last step: where the pass left the campaign. */
        public StepResult step() {
            return steps.get(steps.size() - 1);
        }
    }

    /**
     * Transient: a Secret is missing, the database is unreachable, another driver holds the lease, a pass failed.
     * Retried. {@code ledgerView}: the ledger's projection when it could still be read after the failure, so the
     * status says where the campaign is (a pass that validated and then failed at its swap is Validating, not the
     * phase the last good pass wrote).
     */
    record Waiting(String reason, String message, Duration retryAfter, Optional<BackfillCampaignStatus> ledgerView)
            implements DriveOutcome {
        public Waiting(String reason, String message, Duration retryAfter) {
            this(reason, message, retryAfter, Optional.empty());
        }
    }

    /** Permanent until a person changes something: the spec changed after planning, the route has no adapter. */
    record Refused(String reason, String message, String recommendedAction) implements DriveOutcome {
    }

    /** Pre-flight found ERRORs: nothing was created; retried when the spec changes or on the retry annotation. */
    record PreflightRefused(PreflightResult result, String runKey) implements DriveOutcome {
    }

    /** Observed chunk activity for metrics: durations of chunks seen committing and chunk leases seen expired. */
    record ChunkActivity(List<Double> committedDurationsSeconds, int leaseExpirations) {
        public static final ChunkActivity NONE = new ChunkActivity(List.of(), 0);

        public ChunkActivity {
            committedDurationsSeconds = List.copyOf(committedDurationsSeconds);
        }
    }
}
