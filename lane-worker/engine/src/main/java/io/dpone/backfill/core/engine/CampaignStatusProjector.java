package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignProgress;
import io.dpone.backfill.core.campaign.HandoffStatus;
import io.dpone.backfill.core.campaign.PublicationMode;
import io.dpone.backfill.core.campaign.PublicationStatus;
import io.dpone.backfill.core.campaign.SourceReadStatus;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.HandoffReceipt;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.source.SourceCoverage;
import io.dpone.backfill.core.source.SourceReadCost;
import io.dpone.backfill.core.publish.ValidationResult;

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
        return project(spec, names, campaign, counts, publication, handoff, rollback, NextActionRenderer.NEUTRAL);
    }

    /** The same, with the recommended action rendered in a driver's terms ({@code render} may return null: neutral text). */
    public static BackfillCampaignStatus project(BackfillCampaignSpec spec, ArtifactNames names, CampaignRecord campaign,
                                                 ChunkCounts counts, Optional<PublicationReceipt> publication,
                                                 Optional<HandoffReceipt> handoff, Optional<RollbackReceipt> rollback,
                                                 NextActionRenderer render) {
        BackfillCampaignStatus status = new BackfillCampaignStatus();
        // Published with passes to run before the handoff is Reconciling to people (ADR 0057); the ledger says Published.
        status.setPhase(campaign.phase() == CampaignPhase.Published && handoff.isEmpty()
                && spec.reconcileMode() != io.dpone.backfill.core.campaign.ReconcileMode.NONE
                ? CampaignPhase.Reconciling : campaign.phase());
        status.setRunKey(campaign.runKey());
        status.setPlanDigest(campaign.planDigest());
        status.setConfigDigest(campaign.configDigest());
        PhaseDetail detail = PhaseDetail.parse(campaign.detail());
        status.setProgress(progress(counts, detail.rowsEstimateBasis()));
        status.setPublication(publication(spec, names, campaign, detail, publication));
        HandoffStatus h = new HandoffStatus();
        h.setAnchorXmin(campaign.anchorXmin());
        handoff.ifPresent(r -> {
            // The receipt's anchor: the last reconciliation pass's when the spec ran passes before the handoff.
            h.setAnchorXmin(r.anchorXmin());
            h.setReceiptId(r.receiptId());
            h.setCommittedAt(r.committedAt() == null ? null : r.committedAt().toString());
        });
        status.setHandoff(h);
        status.setRecommendedAction(recommendedAction(spec, names, campaign, detail, render,
                handoff.map(HandoffReceipt::anchorXmin).orElse(null)));
        rollback.ifPresent(r -> {
            status.getPublication().setPhase("rolled_back");
            status.setRecommendedAction("rolled back (receipt " + r.receiptId() + "): the previous table is live again and the"
                    + " published one is kept as the shadow; start a new campaign with a new backfillId to load again");
        });
        status.setPreflight(detail.preflight());
        if (detail.readCost() != null) {
            status.setSourceReads(sourceReads(detail.readCost()));
        }
        return status;
    }

    /** A prediction of the source reads (ADR 0055) as the status, and {@code plan}'s JSON, show it. */
    public static SourceReadStatus sourceReads(SourceReadCost cost) {
        SourceReadStatus s = new SourceReadStatus();
        if (cost.known()) {
            s.setFactor(Math.round(cost.factor() * 10) / 10.0);
            s.setPagesVisited(cost.pagesVisited());
            s.setTablePages(cost.tablePages());
        }
        s.setBasis(cost.reason());
        return s;
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
        PhaseDetail.ContentCheckRecord content = detail.contentCheck();
        if (content != null) {
            p.setContentCheck(content.check());
            if (content.check().equals("content")) {
                p.setContentMatches(content.passed());
            }
            if (!content.passed()) {
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

    /** What a person should do next, as the ledger shows it: the same fact the engine's step returns. */
    public static NextAction nextAction(BackfillCampaignSpec spec, ArtifactNames names, CampaignRecord campaign, PhaseDetail detail) {
        return nextAction(spec, names, campaign, detail, null);
    }

    /** {@code handoffAnchor}: the handoff receipt's anchor (a reconciliation pass's, ADR 0057), null for the load's. */
    static NextAction nextAction(BackfillCampaignSpec spec, ArtifactNames names, CampaignRecord campaign, PhaseDetail detail,
                                 String handoffAnchor) {
        boolean shadow = spec.getPublication().getMode() == PublicationMode.SHADOW_SWAP;
        return switch (campaign.phase()) {
            case Suspended -> new NextAction.LiftSuspension();
            case Recoverable -> new NextAction.FixThenResume(detail.text("recoverableReason"));
            case Blocked -> "true".equals(detail.text("blockedAfterPublication"))
                    ? new NextAction.ReconcileBeforeSync(names.schema() + "." + spec.getTarget().getTable())
                    : new NextAction.NewCampaign(shadow ? names.schema() + "." + names.shadowTable() : null);
            case HandoffCommitted -> new NextAction.StartIncrementalSync(handoffAnchor == null ? campaign.anchorXmin() : handoffAnchor);
            default -> NextAction.NONE;
        };
    }

    static String recommendedAction(BackfillCampaignSpec spec, ArtifactNames names, CampaignRecord campaign, PhaseDetail detail,
                                    NextActionRenderer render, String handoffAnchor) {
        NextAction next = nextAction(spec, names, campaign, detail, handoffAnchor);
        String rendered = render.render(next);
        String text = rendered != null ? rendered : NextActionRenderer.NEUTRAL.render(next);
        return switch (campaign.phase()) {
            case Planned, Prepared, Validating, Publishing, Published -> "none: the campaign is progressing";
            case Loading -> "none: lanes are loading chunks";
            case Blocked -> ("true".equals(detail.text("blockedAfterPublication")) ? "blocked after publication: " : "blocked: ")
                    + detail.text("blockedReason") + ". " + text;
            case Invalid -> "fix the campaign spec";
            default -> text;
        };
    }

    /**
     * Adds the rate ceiling in force to a projected status (issue 28): {@code status.throttle}, whether it holds the
     * lanes back ({@code wasThrottled}: it did at the last judgement, for hysteresis), and an ETA no sooner than the
     * ceiling allows.
     */
    public static BackfillCampaignStatus withThrottle(BackfillCampaignStatus status, ChunkCounts counts,
                                                      io.dpone.backfill.core.ledger.ThrottleSetting setting,
                                                      boolean wasThrottled) {
        return withThrottle(status, counts, setting, Optional.empty(), wasThrottled);
    }

    /** The same, with the pause of claims as the ledger records it (the source guard, the load windows). */
    public static BackfillCampaignStatus withThrottle(BackfillCampaignStatus status, ChunkCounts counts,
                                                      io.dpone.backfill.core.ledger.ThrottleSetting setting,
                                                      Optional<io.dpone.backfill.core.ledger.ClaimPause> claimPause,
                                                      boolean wasThrottled) {
        CampaignProgress p = status.getProgress();
        double rate = p == null ? 0 : p.getRowsPerSecond();
        status.setThrottle(ThrottleJudge.status(setting, claimPause, status.getPhase(), rate, wasThrottled));
        if (p != null && setting.rowsPerSecond() > 0) {
            Eta capped = Eta.underCeiling(new Eta(p.getEtaSeconds(), p.getEtaBasis()), counts, setting.rowsPerSecond());
            p.setEtaSeconds(capped.seconds());
            p.setEtaBasis(capped.basis());
        }
        return status;
    }

    /**
     * Adds the swap's approval to a projected status (issue 28): {@code manual} when a person approves it, and who
     * and when once one did.
     */
    public static BackfillCampaignStatus withApproval(BackfillCampaignStatus status, BackfillCampaignSpec spec,
                                                      java.util.Optional<io.dpone.backfill.core.ledger.PublicationApproval> approval) {
        if (status.getPublication() == null
                || spec.getPublication().approvalMode() != io.dpone.backfill.core.campaign.ApprovalMode.MANUAL) {
            return status;
        }
        status.getPublication().setApproval("manual");
        approval.ifPresent(a -> {
            status.getPublication().setApprovedBy(a.approvedBy());
            status.getPublication().setApprovedAt(a.approvedAt().toString());
        });
        return status;
    }

    /**
     * The campaign's publication group and where it stands (issue 27), from the ledger's member rows; unchanged for
     * a campaign without a group.
     */
    public static BackfillCampaignStatus withGroup(BackfillCampaignStatus status, BackfillCampaignSpec spec,
                                                   java.util.function.Function<String, java.util.List<io.dpone.backfill.core.ledger.GroupMember>> members) {
        java.util.Optional<io.dpone.backfill.core.campaign.PublicationGroup> group =
                spec.getPublication().getMode() == PublicationMode.SHADOW_SWAP
                        ? io.dpone.backfill.core.campaign.PublicationGroup.of(spec) : java.util.Optional.empty();
        if (status.getPublication() == null || group.isEmpty()) {
            return status;
        }
        status.getPublication().setGroup(group.get().name());
        CampaignPhase phase = status.getPhase();
        // One member's rollback swaps every member back (issue 40): the standing says so, not "published".
        status.getPublication().setGroupStanding("rolled_back".equals(status.getPublication().getPhase())
                ? "rolled back with its publication group " + group.get().describe()
                : phase == CampaignPhase.Published || phase == CampaignPhase.Reconciling || phase == CampaignPhase.HandoffCommitted
                ? "published with its group " + group.get().describe()
                : io.dpone.backfill.core.ledger.GroupStanding.of(group.get(), members.apply(group.get().name())).describe());
        return status;
    }
}
