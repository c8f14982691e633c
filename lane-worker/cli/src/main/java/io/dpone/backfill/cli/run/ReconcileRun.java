package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.status.ReconcileReport;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.driver.ClaimWait;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.reconcile.ReconcileLedger;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.lane.HostName;
import io.dpone.backfill.wiring.CampaignReconciliation;
import io.dpone.backfill.wiring.CampaignRuntime;
import io.dpone.backfill.wiring.Connectors;

import java.time.Duration;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * One reconciliation pass as {@code backfill reconcile} runs it (issue 38): the campaign must have handed off, the
 * lease is claimed (waiting up to a bound), the queue's decisions are recorded, the pass runs and the lease is
 * released. The command and the bench's reconciliation arm run passes through here.
 */
public final class ReconcileRun {
    /** What a caller does with the queue: check the keys it names before the claim, record decisions after it. */
    public interface Decisions {
        Decisions NONE = new Decisions() {
        };

        default void check(ReconcileLedger passes) {
        }

        default void decide(ReconcileLedger passes) {
        }
    }

    /** The exit code, and the receiving report when a pass ran. */
    public record Outcome(int exitCode, ReconcileReport report) {
    }

    private ReconcileRun() {
    }

    public static Outcome execute(CampaignBlueprint blueprint, ConnectionSettings source, ConnectionSettings target,
                                  Duration driverWait, Decisions decisions, Consumer<String> log) throws Exception {
        BackfillCampaignSpec spec = blueprint.definition().spec();
        String runKey = blueprint.identity().runKey();
        EngineTimings timings = EngineTimings.fromEnvironment(System.getenv());
        try (CampaignRuntime session = CampaignRuntime.open(blueprint, source::open, target::open, timings, "backfill-reconcile")) {
            CampaignRecord record;
            try {
                record = CampaignReconciliation.requireHandedOff(blueprint, session.ledger());
            } catch (CampaignReconciliation.NotReconcilableException e) {
                log.accept("cannot reconcile: " + e.getMessage());
                return new Outcome(ExitCodes.FAILURE, null);
            }
            ReconcileLedger passes = Connectors.target(spec.getTarget().getType())
                    .reconcileLedger(session.targetConnection(), spec.getState().getSchema());
            passes.ensureSchema();
            decisions.check(passes);
            String owner = "reconcile@" + HostName.local() + ":" + ProcessHandle.current().pid() + ":"
                    + UUID.randomUUID().toString().substring(0, 8);
            CampaignClaim claim = new ClaimWait(new ClaimLines(log))
                    .claim(() -> session.ledger().claimCampaign(runKey, owner, timings.leaseTtl()), driverWait);
            if (claim instanceof CampaignClaim.Held held) {
                log.accept("another driver holds the campaign lease (" + held.summary() + "); stop it first");
                return new Outcome(ExitCodes.LEASE_HELD, null);
            }
            CampaignLease lease = ((CampaignClaim.Taken) claim).lease();
            try {
                decisions.decide(passes);
                CampaignReconciliation.run(blueprint, session.ledger(), passes, session.sourceConnection(),
                        session.targetConnection(), lease, timings.leaseTtl(), session.faults(), line -> log.accept("reconcile: " + line));
            } finally {
                session.ledger().releaseLease(lease);
            }
            ReconcileReport report = ReconcileReport.read(passes, runKey, record.anchorXmin(), spec.getChunk());
            return new Outcome(report.caughtUp() ? ExitCodes.OK : ExitCodes.DIFFERENCES, report);
        }
    }
}
