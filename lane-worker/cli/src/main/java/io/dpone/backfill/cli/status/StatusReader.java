package io.dpone.backfill.cli.status;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.engine.CampaignStatusProjector;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;

import java.util.Optional;

/** Reads a campaign's bounded status from the ledger; empty when the campaign was never started. */
public final class StatusReader {
    private StatusReader() {
    }

    public static Optional<BackfillCampaignStatus> read(CampaignBlueprint blueprint, LedgerStore ledger) {
        Optional<CampaignRecord> campaign = ledger.peek(blueprint.identity().runKey());
        return campaign.map(c -> {
            ChunkCounts counts = ledger.counts(c.runKey(), blueprint.definition().spec().getMaxChunkAttempts());
            BackfillCampaignStatus status = CampaignStatusProjector.withApproval(CampaignStatusProjector.project(
                    blueprint.definition().spec(), blueprint.artifacts(), c, counts,
                    ledger.publicationReceipt(c.runKey()), ledger.handoffReceipt(c.runKey()), ledger.rollbackReceipt(c.runKey()),
                    NextActionText::of), blueprint.definition().spec(), ledger.publicationApproval(c.runKey()));
            status = CampaignStatusProjector.withGroup(status, blueprint.definition().spec(), ledger::groupMembers);
            return CampaignStatusProjector.withThrottle(status, counts, ledger.throttle(c.runKey()),
                    ledger.claimPause(c.runKey()), false);
        });
    }
}
