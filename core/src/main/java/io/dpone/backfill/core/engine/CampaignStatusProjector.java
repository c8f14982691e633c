package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignProgress;
import io.dpone.backfill.core.campaign.HandoffStatus;
import io.dpone.backfill.core.campaign.PublicationMode;
import io.dpone.backfill.core.campaign.PublicationStatus;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.HandoffReceipt;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.source.SourceCoverage;
import io.dpone.backfill.core.target.ValidationResult;

import java.util.Optional;

/**
 * Builds the bounded status from the ledger: counters, rate, ETA, validation and receipts, recommended action.
 * Rebuilt from scratch each time, so it can never disagree with the ledger it projects.
 */
public final class CampaignStatusProjector {
    private CampaignStatusProjector() {
    }

    /**
     * {@code rollback}: the rollback receipt when an operator-authorised rollback swapped the backup back in; the
     * publication then reads {@code rolled_back} for every driver (CLI and operator alike).
     */
    public static BackfillCampaignStatus project(BackfillCampaignSpec spec, ArtifactNames names, CampaignRecord campaign,
                                                 ChunkCounts counts, Optional<PublicationReceipt> publication,
                                                 Optional<HandoffReceipt> handoff, Optional<RollbackReceipt> rollback) {
        BackfillCampaignStatus status = new BackfillCampaignStatus();
        status.setPhase(campaign.phase());
        status.setRunKey(campaign.runKey());
        status.setPlanDigest(campaign.planDigest());
        status.setConfigDigest(campaign.configDigest());
        PhaseDetail detail = PhaseDetail.parse(campaign.detail());
        status.setProgress(progress(counts, detail.rowsEstimateBasis()));
        status.setPublication(publication(spec, names, campaign, detail, publication));
        HandoffStatus h = new HandoffStatus();
        h.setAnchorXmin(campaign.anchorXmin());
        handoff.ifPresent(r -> {
            h.setReceiptId(r.receiptId());
            h.setCommittedAt(r.committedAt() == null ? null : r.committedAt().toString());
        });
        status.setHandoff(h);
        status.setRecommendedAction(recommendedAction(campaign, detail));
        rollback.ifPresent(r -> {
            status.getPublication().setPhase("rolled_back");
            status.setRecommendedAction("rolled back (receipt " + r.receiptId() + "): the previous table is live again and the"
                    + " published one is kept as the shadow; start a new campaign with a new backfillId to load again");
        });
        status.setPreflight(detail.preflight());
        return status;
    }

    static CampaignProgress progress(ChunkCounts c, String estimateBasis) {
        CampaignProgress p = new CampaignProgress();
        p.setTotalChunks(c.total());
        p.setPendingChunks(c.pending());
        p.setRunningChunks(c.running());
        p.setCommittedChunks(c.committed());
        p.setFailedChunks(c.failed());
        p.setRowsExtracted(c.rowsExtracted());
        p.setRowsLoaded(c.rowsLoaded());
        double rate = Eta.rowsPerSecond(c);
        p.setRowsPerSecond(Math.round(rate * 10) / 10.0);
        Eta eta = Eta.of(c, rate, estimateBasis);
        p.setEtaSeconds(eta.seconds());
        p.setEtaBasis(eta.basis());
        return p;
    }

    private static PublicationStatus publication(BackfillCampaignSpec spec, ArtifactNames names, CampaignRecord campaign,
                                                 PhaseDetail detail, Optional<PublicationReceipt> receipt) {
        PublicationStatus p = new PublicationStatus();
        boolean shadow = spec.getPublication().getMode() == PublicationMode.SHADOW_SWAP;
        p.setMode(spec.getPublication().getMode().wireName());
        if (shadow) {
            p.setShadowTable(names.schema() + "." + names.shadowTable());
            p.setBackupTable(names.schema() + "." + names.backupTable());
        }
        ValidationResult v = detail.validation();
        if (v != null) {
            p.setValidation(v.passed() ? "passed" : "failed");
            p.setExpectedRows(v.expectedRows());
            p.setActualRows(v.actualRows());
            p.setNullKeys(v.nullKeys());
            p.setDuplicateKeys(v.duplicateKeys());
        } else {
            p.setValidation("pending");
        }
        SourceCoverage coverage = detail.coverage();
        if (coverage != null) {
            p.setUncoveredSourceRows(coverage.uncoveredRows());
            p.setCoverage(coverage.basis());
            if (!coverage.complete()) {
                p.setValidation("failed");
            }
        }
        p.setPhase(switch (campaign.phase()) {
            case Published, HandoffCommitted -> "published";
            case Publishing -> "publishing";
            case Blocked -> "blocked";
            default -> "not_published";
        });
        receipt.ifPresent(r -> {
            p.setReceiptId(r.receiptId());
            p.setBackupRetained(true);
        });
        return p;
    }

    static String recommendedAction(CampaignRecord campaign, PhaseDetail detail) {
        return switch (campaign.phase()) {
            case Planned, Prepared, Validating, Publishing, Published -> "none: the campaign is progressing";
            case Loading -> "none: lanes are loading chunks";
            case Suspended -> "set spec.suspend to false (operator) or rerun `backfill run` without suspend to continue";
            case Recoverable -> "read the failed chunks' last_error (`backfill status --format json`), fix the cause, then `backfill resume`"
                    + (detail.text("recoverableReason") == null ? "" : " (" + detail.text("recoverableReason") + ")");
            case Blocked -> "true".equals(detail.text("blockedAfterPublication"))
                    ? "blocked after publication: " + detail.text("blockedReason") + ". The published table is live and"
                    + " its backup kept; reconcile it with the source (or roll back) before incremental sync starts"
                    : "blocked: " + detail.text("blockedReason")
                    + ". The live table is untouched; fix the cause and start a new campaign with a new backfillId";
            case HandoffCommitted -> "start incremental sync from XMin " + campaign.anchorXmin();
            case Invalid -> "fix the campaign spec";
        };
    }
}
