package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.CampaignOptions;
import io.dpone.backfill.core.campaign.ApprovalMode;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.PublicationApproval;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.lane.HostName;
import io.dpone.backfill.wiring.Connectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.sql.Connection;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code backfill publish}: a person approves the swap of a campaign with {@code publication.approval: manual}
 * (issue 28). Writes the approval into the ledger, takes no lease and swaps nothing itself: the campaign's driver
 * swaps at its next step, and the publication receipt records who approved and when.
 */
@Command(name = "publish", mixinStandardHelpOptions = true,
        description = {"Approve the swap of a validated campaign whose publication.approval is manual.",
                "Records who and when in the ledger; the running `backfill run` (or the operator) swaps at its next step,"
                        + " within its publication window if it has one. The first approval stands.",
                "Exit 0: approved (now or before); 1: the campaign was never started."})
public final class PublishCommand implements Callable<Integer> {
    @Mixin
    CampaignOptions campaign;

    @Option(names = "--by", description = "Who approves, as the receipt records it (default: user@host).")
    String by;

    @Override
    public Integer call() throws Exception {
        CampaignBlueprint blueprint = campaign.blueprint();
        BackfillCampaignSpec spec = blueprint.definition().spec();
        String runKey = blueprint.identity().runKey();
        String approver = by != null && !by.isBlank() ? by : System.getProperty("user.name") + "@" + HostName.local();
        try (Connection state = campaign.target(spec).open("backfill-publish")) {
            LedgerStore ledger = Connectors.target(spec.getTarget().getType()).ledger(state, spec.getState().getSchema());
            Optional<PublicationApproval> approval = Optional.empty();
            if (ledger.peek(runKey).isPresent()) {
                ledger.ensureSchema(); // a ledger written by an older build gains the approval columns
                approval = ledger.approvePublication(runKey, approver);
            }
            if (approval.isEmpty()) {
                System.err.println("backfill: campaign " + spec.getBackfillId() + " (run key " + runKey + ") was never"
                        + " started: nothing to approve");
                return ExitCodes.FAILURE;
            }
            PublicationApproval a = approval.get();
            System.out.println((a.approvedBy().equals(approver) ? "approved" : "already approved") + " by " + a.approvedBy()
                    + " at " + a.approvedAt() + " (run key " + runKey + ")" + (spec.getPublication().approvalMode()
                    == ApprovalMode.MANUAL ? "; the campaign's driver swaps at its next step"
                    : "; note: this campaign's approval is automatic, so it never waited for one"));
            return ExitCodes.OK;
        }
    }
}
