package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.CampaignOptions;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.driver.ClaimWait;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.publish.PublishedTableWrittenException;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.lane.HostName;
import io.dpone.backfill.wiring.CampaignRuntime;
import io.dpone.backfill.wiring.Connectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.UUID;
import java.util.concurrent.Callable;

/** {@code backfill rollback}: the operator-authorised swap back to the retained backup, with its own receipt. */
@Command(name = "rollback", mixinStandardHelpOptions = true,
        description = {"Swap the retained backup back in as the live table (one transaction, with a rollback receipt). Replays are no-ops.",
                "A member of a publication group rolls the whole group back in that one transaction: every member's table,"
                        + " each with its own rollback receipt; the output names them all.",
                "Refused (exit 3, nothing changed) when the published table was written after publication, unless --accept-writes.",
                "A campaign that was never started has nothing to roll back (exit 1, nothing touched)."})
public final class RollbackCommand implements Callable<Integer> {
    @Mixin
    CampaignOptions campaign;

    @Mixin
    DriverWaitOption driverWait;

    @Option(names = "--reason", required = true, description = "Why: recorded in the rollback receipt.")
    String reason;

    @Option(names = "--accept-writes", description = {"Roll back even though the published table was written after publication.",
            "Those writes move with it to the shadow name, and the rollback receipt records that they were accepted."})
    boolean acceptWrites;

    @Override
    public Integer call() throws Exception {
        CampaignBlueprint blueprint = campaign.blueprint();
        BackfillCampaignSpec spec = blueprint.definition().spec();
        Connectors.target(spec.getTarget().getType());
        EngineTimings timings = EngineTimings.fromEnvironment(System.getenv());
        try (CampaignRuntime session = CampaignRuntime.open(blueprint, campaign.source(spec)::open, campaign.target(spec)::open,
                timings, "backfill-rollback")) {
            if (session.ledger().peek(blueprint.identity().runKey()).isEmpty()) {
                System.err.println("backfill: campaign " + spec.getBackfillId() + " (run key " + blueprint.identity().runKey()
                        + ") was never started: nothing was published, so there is nothing to roll back");
                return ExitCodes.FAILURE;
            }
            String owner = "rollback@" + HostName.local() + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 8);
            // Like a driver (ADR 0016): a dead driver's campaign is taken over at once, a live one is waited for.
            CampaignClaim claim = new ClaimWait(new ClaimLines(line -> System.err.println("backfill: " + line)))
                    .claim(() -> session.ledger().claimCampaign(blueprint.identity().runKey(), owner, timings.leaseTtl()),
                            driverWait.bound());
            if (claim instanceof CampaignClaim.Held held) {
                System.err.println("backfill: another driver holds the campaign lease (" + held.summary() + "); stop it first");
                return ExitCodes.LEASE_HELD;
            }
            CampaignLease lease = ((CampaignClaim.Taken) claim).lease();
            try {
                RollbackReceipt receipt = session.publisher().rollback(lease, blueprint.artifacts(), spec.getTarget().getTable(),
                        reason, acceptWrites);
                System.out.println("rolled back: " + blueprint.artifacts().schema() + "." + spec.getTarget().getTable()
                        + " is the previous table again" + (receipt.groupTables().isEmpty() ? ""
                        : ", and so are the other members of its publication group in the same transaction: "
                        + String.join(", ", receipt.groupTables())) + "; receipt " + receipt.receiptId()
                        + (receipt.acceptedWrites() == null ? "" : "; " + receipt.acceptedWrites()));
                return ExitCodes.OK;
            } catch (PublishedTableWrittenException e) {
                System.err.println("backfill: rollback refused: " + e.getMessage());
                return ExitCodes.BLOCKED;
            } finally {
                session.ledger().releaseLease(lease);
            }
        }
    }
}
