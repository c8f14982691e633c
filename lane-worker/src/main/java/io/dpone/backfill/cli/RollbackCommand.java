package io.dpone.backfill.cli;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.target.PublishedTableWrittenException;
import io.dpone.backfill.wiring.CampaignSession;
import io.dpone.backfill.wiring.TargetAdapters;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;

/** {@code backfill rollback}: the operator-authorised swap back to the retained backup, with its own receipt. */
@Command(name = "rollback", mixinStandardHelpOptions = true,
        description = {"Swap the retained backup back in as the live table (one transaction, with a rollback receipt). Replays are no-ops.",
                "Refused (exit 3, nothing changed) when the published table was written after publication, unless --accept-writes."})
final class RollbackCommand implements Callable<Integer> {
    @Mixin
    CampaignOptions campaign;

    @Option(names = "--reason", required = true, description = "Why: recorded in the rollback receipt.")
    String reason;

    @Option(names = "--accept-writes", description = {"Roll back even though the published table was written after publication:",
            "those writes move with it to the shadow name, and the rollback receipt records that they were accepted."})
    boolean acceptWrites;

    @Override
    public Integer call() throws Exception {
        CampaignBlueprint blueprint = campaign.blueprint();
        BackfillCampaignSpec spec = blueprint.definition().spec();
        TargetAdapters.of(spec.getTarget().getType());
        EngineTimings timings = EngineTimings.fromEnvironment(System.getenv());
        try (CampaignSession session = CampaignSession.open(blueprint, campaign.source(spec)::open, campaign.target(spec)::open,
                timings, "backfill-rollback")) {
            String owner = "rollback@" + LocalDriver.host() + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 8);
            Optional<CampaignLease> lease = session.ledger().acquireLease(blueprint.identity().runKey(), owner, timings.leaseTtl());
            if (lease.isEmpty()) {
                System.err.println("backfill: another driver holds the campaign lease; stop it first");
                return LocalDriver.EXIT_LEASE_HELD;
            }
            try {
                RollbackReceipt receipt = session.publisher().rollback(lease.get(), blueprint.artifacts(), spec.getTarget().getTable(),
                        reason, acceptWrites);
                System.out.println("rolled back: " + blueprint.artifacts().schema() + "." + spec.getTarget().getTable()
                        + " is the previous table again; receipt " + receipt.receiptId()
                        + (receipt.acceptedWrites() == null ? "" : "; " + receipt.acceptedWrites()));
                return BackfillCli.EXIT_OK;
            } catch (PublishedTableWrittenException e) {
                System.err.println("backfill: rollback refused: " + e.getMessage());
                return LocalDriver.EXIT_BLOCKED;
            } finally {
                session.ledger().releaseLease(lease.get());
            }
        }
    }
}
