package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.PublicationMode;
import io.dpone.backfill.core.campaign.RetryPolicy;
import io.dpone.backfill.core.digest.CanonicalJson;
import io.dpone.backfill.core.doctor.Preflight;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.HandoffReceipt;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.source.AnchorCheck;
import io.dpone.backfill.core.source.ChunkRowEstimates;
import io.dpone.backfill.core.source.SourceCatalog;
import io.dpone.backfill.core.source.SourceCoverage;
import io.dpone.backfill.core.target.ArtifactOwnershipException;
import io.dpone.backfill.core.target.LiveTargetBaseline;
import io.dpone.backfill.core.target.LiveTargetChangedException;
import io.dpone.backfill.core.target.ShadowPublisher;
import io.dpone.backfill.core.target.TableFingerprint;
import io.dpone.backfill.core.target.TableShapeDiff;
import io.dpone.backfill.core.target.TableShape;
import io.dpone.backfill.core.target.ValidationResult;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The campaign state machine (DESIGN.md section 4) as one step function over the ledger. Each call reads the
 * ledger afresh, does at most one phase's work, and records the result with a transition fenced by the campaign
 * lease, so it is safe to repeat after a crash at any point. The CLI's local runner and the operator's reconciler
 * both drive it; neither re-implements a phase.
 */
public final class CampaignEngine {
    private static final Duration NOW = Duration.ZERO;
    private static final Duration LOADING_POLL = Duration.ofSeconds(2);
    private static final Duration IDLE_POLL = Duration.ofSeconds(5);

    private final CampaignBlueprint blueprint;
    private final BackfillCampaignSpec spec;
    private final LedgerStore ledger;
    private final ShadowPublisher publisher;
    private final SourceCatalog source;
    private final ArtifactNames names;
    /** The verdict of {@link #open}'s pre-flight, recorded at preparation; null until open() checked. */
    private PreflightResult preflight;

    public CampaignEngine(CampaignBlueprint blueprint, LedgerStore ledger, ShadowPublisher publisher, SourceCatalog source) {
        this.blueprint = blueprint;
        this.spec = blueprint.definition().spec();
        this.ledger = ledger;
        this.publisher = publisher;
        this.source = source;
        this.names = blueprint.artifacts();
    }

    /**
     * Gates the start, then creates the ledger and the campaign row (Planned) if missing: the first side effect of
     * a campaign. A campaign that was never prepared (no ledger row yet, or still Planned) runs {@code preflight}
     * first; an ERROR finding throws {@link PreflightRefusedException} before anything is created. A campaign
     * already past preparation is not checked again: its catalog evidence is in the ledger.
     */
    public CampaignRecord open(Preflight preflight) {
        Optional<CampaignRecord> existing = ledger.peek(runKey());
        if (existing.isEmpty() || existing.get().phase() == CampaignPhase.Planned) {
            PreflightResult result = preflight.run();
            if (result.refuses()) {
                throw new PreflightRefusedException(result);
            }
            this.preflight = result;
        }
        ledger.ensureSchema();
        return ledger.createCampaign(blueprint, CanonicalJson.write(spec));
    }

    public String runKey() {
        return blueprint.identity().runKey();
    }

    public StepResult step(CampaignLease lease) {
        CampaignRecord campaign = ledger.findByRunKey(runKey())
                .orElseThrow(() -> new IllegalStateException("campaign " + runKey() + " is not in the ledger; open() it first"));
        return switch (campaign.phase()) {
            case Planned -> prepare(lease, campaign);
            case Prepared -> startLoading(lease, campaign);
            case Loading -> load(lease, campaign);
            case Suspended -> suspendedStep(lease, campaign);
            case Recoverable -> settled(campaign, "chunks failed past their attempt budget",
                    "fix the cause in last_error (backfill status), then run `backfill resume`");
            case Validating -> validate(lease, campaign);
            case Publishing -> publish(lease, campaign);
            case Published -> handoff(lease, campaign);
            case HandoffCommitted -> new StepResult(CampaignPhase.HandoffCommitted,
                    List.of(new EngineAction.StopLanes("campaign complete")), NOW, true,
                    "published and handed off", "start incremental sync from the XMin anchor " + campaign.anchorXmin());
            case Blocked -> settled(campaign, "blocked: " + PhaseDetail.parse(campaign.detail()).text("blockedReason"),
                    blockedAction(campaign));
            case Invalid -> throw new IllegalStateException("Invalid is not a ledger phase");
        };
    }

    /**
     * Operator-authorised resume of a Recoverable (or Blocked-by-lanes) campaign: failed chunks go back to pending with
     * a fresh attempt budget and lanes may claim again.
     */
    public int resume(CampaignLease lease) {
        CampaignRecord campaign = current();
        int requeued = ledger.requeueFailed(lease);
        if (campaign.phase() == CampaignPhase.Recoverable) {
            ledger.setStopRequested(lease, false);
            ledger.transition(lease, CampaignPhase.Recoverable, CampaignPhase.Loading,
                    PhaseDetail.parse(campaign.detail()).with("recoverableReason", null).json());
        }
        return requeued;
    }

    /**
     * The driver's lane processes (or pods) failed past their budget: stop claims and make the campaign Recoverable,
     * so a person looks at the lane logs before resuming.
     */
    public StepResult lanesExhausted(CampaignLease lease, String reason) {
        CampaignRecord campaign = current();
        if (campaign.phase() != CampaignPhase.Loading) {
            return step(lease);
        }
        ledger.setStopRequested(lease, true);
        if (!ledger.transition(lease, CampaignPhase.Loading, CampaignPhase.Recoverable,
                PhaseDetail.parse(campaign.detail()).with("recoverableReason", reason).json())) {
            throw lost();
        }
        return new StepResult(CampaignPhase.Recoverable, List.of(new EngineAction.StopLanes(reason)), NOW, true, reason,
                "read the lane logs, fix the cause, then `backfill resume`");
    }

    private StepResult prepare(CampaignLease lease, CampaignRecord campaign) {
        if (preflight == null) {
            throw new IllegalStateException("campaign " + runKey() + " is Planned but this engine did not open() it"
                    + " with a pre-flight decision; nothing was prepared");
        }
        // The anchor comes first: every chunk reads the source after it, so nothing before it can be missed.
        if (campaign.anchorXmin() == null && !ledger.recordAnchor(lease, source.captureAnchor())) {
            throw new LeaseLostException("could not record the XMin anchor: campaign lease lost");
        }
        TableShape sourceShape = source.shape(spec.getSource().getSchema(), spec.getSource().getTable());
        TableShape liveShape = publisher.liveShape(names.schema(), spec.getTarget().getTable());
        if (!sourceShape.exists()) {
            return block(lease, campaign, "source table " + spec.getSource().getSchema() + "." + spec.getSource().getTable() + " does not exist");
        }
        if (!liveShape.exists()) {
            return block(lease, campaign, "target table " + names.schema() + "." + spec.getTarget().getTable()
                    + " does not exist: provision and review it before the campaign");
        }
        // Columns the target fills itself (nullable, default, identity, generated) may be absent in the source.
        List<String> missing = liveShape.requiredMissingIn(sourceShape);
        if (!missing.isEmpty()) {
            return block(lease, campaign, "target columns missing in the source that the target cannot fill"
                    + " (NOT NULL without default, identity or generation): " + missing);
        }
        if (shadowSwap()) {
            try {
                publisher.prepareShadow(runKey(), names, spec.getTarget().getTable());
            } catch (ArtifactOwnershipException e) {
                return block(lease, campaign, e.getMessage());
            }
        }
        TableShape loadShape = publisher.shape(names.schema(), loadTable());
        // Direct mode writes into the live table itself, so only its shape (not its content) is a baseline there.
        String content = shadowSwap() ? publisher.fingerprint(names.schema(), spec.getTarget().getTable()).encoded() : null;
        LiveTargetBaseline baseline = new LiveTargetBaseline(liveShape, content);
        if (!ledger.recordShapes(lease, sourceShape.digest(), loadShape.digest(), baseline.json())) {
            throw new LeaseLostException("could not record table shapes: campaign lease lost");
        }
        ChunkRowEstimates estimates = estimateRows();
        if (estimates.present() && !ledger.recordChunkEstimates(lease, estimates.rows())) {
            throw new LeaseLostException("could not record chunk row estimates: campaign lease lost");
        }
        String detail = PhaseDetail.parse(campaign.detail()).withPreflight(preflight)
                .withRowsEstimateBasis(estimates.basis()).json();
        if (!ledger.transition(lease, CampaignPhase.Planned, CampaignPhase.Prepared, detail)) {
            throw lost();
        }
        return new StepResult(CampaignPhase.Prepared, List.of(), NOW, false,
                shadowSwap() ? "shadow " + names.shadowTable() + " prepared" : "direct load into the live table prepared", "wait");
    }

    /**
     * Rows per chunk for the ETA (ADR 0012). Advisory: an estimate that fails or does not match the plan is recorded
     * as "none" with the reason and the ETA falls back to averages; it never blocks preparation.
     */
    private ChunkRowEstimates estimateRows() {
        ChunkRowEstimates e;
        try {
            e = source.estimateChunkRows(spec.getSource().getSchema(), spec.getSource().getTable(), blueprint.plan());
        } catch (RuntimeException ex) {
            return ChunkRowEstimates.none("the source estimate failed: " + ex.getMessage());
        }
        if (e.present() && e.rows().size() != blueprint.plan().size()) {
            return ChunkRowEstimates.none("the source estimated " + e.rows().size() + " chunks for a plan of "
                    + blueprint.plan().size());
        }
        return e;
    }

    private StepResult startLoading(CampaignLease lease, CampaignRecord campaign) {
        if (suspended()) {
            ledger.setStopRequested(lease, true);
            return withStop(move(lease, CampaignPhase.Prepared, CampaignPhase.Suspended, campaign, IDLE_POLL,
                    "suspended before loading: no claims"), "suspended");
        }
        return move(lease, CampaignPhase.Prepared, CampaignPhase.Loading, campaign, NOW, "prepared; loading starts");
    }

    private StepResult load(CampaignLease lease, CampaignRecord campaign) {
        if (suspended()) {
            ledger.setStopRequested(lease, true);
            StepResult r = move(lease, CampaignPhase.Loading, CampaignPhase.Suspended, campaign, IDLE_POLL, "suspended: no new claims");
            return withStop(r, "suspended");
        }
        String drift = drift(campaign);
        if (drift != null) {
            ledger.setStopRequested(lease, true);
            return withStop(block(lease, campaign, drift), "schema drift");
        }
        int maxAttempts = maxAttempts();
        ChunkCounts counts = ledger.counts(runKey(), maxAttempts);
        if (counts.allCommitted()) {
            return move(lease, CampaignPhase.Loading, CampaignPhase.Validating, campaign, NOW,
                    "all " + counts.total() + " chunks committed");
        }
        int exhausted = spec.getRetryPolicy() == RetryPolicy.NONE ? counts.failed() : counts.failedExhausted();
        if (exhausted > 0) {
            ledger.setStopRequested(lease, true);
            String reason = exhausted + " chunk(s) failed " + maxAttempts + " time(s)";
            if (!ledger.transition(lease, CampaignPhase.Loading, CampaignPhase.Recoverable,
                    PhaseDetail.parse(campaign.detail()).with("recoverableReason", reason).json())) {
                throw lost();
            }
            return new StepResult(CampaignPhase.Recoverable, List.of(new EngineAction.StopLanes(reason)), NOW, true,
                    reason, "fix the cause in last_error (backfill status), then run `backfill resume`");
        }
        return new StepResult(CampaignPhase.Loading, List.of(new EngineAction.RunLanes(spec.getParallelWorkers())),
                LOADING_POLL, false, counts.committed() + "/" + counts.total() + " chunks committed", "wait");
    }

    private StepResult suspendedStep(CampaignLease lease, CampaignRecord campaign) {
        if (suspended()) {
            return new StepResult(CampaignPhase.Suspended, List.of(new EngineAction.StopLanes("suspended")), IDLE_POLL,
                    false, "suspended: no new chunk claims", "set spec.suspend to false to continue");
        }
        ledger.setStopRequested(lease, false);
        return move(lease, CampaignPhase.Suspended, CampaignPhase.Loading, campaign, NOW, "resumed from suspension");
    }

    private StepResult validate(CampaignLease lease, CampaignRecord campaign) {
        ChunkCounts counts = ledger.counts(runKey(), maxAttempts());
        ValidationResult v = publisher.validate(names.schema(), loadTable(), spec.getUniqueKey(), counts.rowsLoaded());
        // The receipts only describe rows some chunk covered: rows no chunk covers must be counted in the source.
        SourceCoverage coverage = source.uncoveredRows(spec.getSource().getSchema(), spec.getSource().getTable(),
                spec.getChunk().getColumn());
        // Direct mode appends to a table that may already hold rows: it must hold at least what the receipts say.
        boolean passed = coverage.complete() && (shadowSwap() ? v.passed()
                : v.nullKeys() == 0 && v.duplicateKeys() == 0 && v.actualRows() >= v.expectedRows());
        PhaseDetail detail = PhaseDetail.parse(campaign.detail()).withValidation(v).withCoverage(coverage);
        if (!passed) {
            String reason = "validation failed: " + v.describe() + "; " + coverage.describe()
                    + (shadowSwap() ? "; the shadow is kept for diagnosis and the live table is untouched" : "");
            if (!ledger.transition(lease, CampaignPhase.Validating, CampaignPhase.Blocked, detail.with("blockedReason", reason).json())) {
                throw lost();
            }
            return new StepResult(CampaignPhase.Blocked, List.of(new EngineAction.StopLanes("validation failed")), NOW, true,
                    reason, "inspect " + names.schema() + "." + loadTable() + ", fix the source, and start a new campaign with a new backfillId");
        }
        if (!shadowSwap()) {
            if (!ledger.transition(lease, CampaignPhase.Validating, CampaignPhase.Published, detail.json())) {
                throw lost();
            }
            return new StepResult(CampaignPhase.Published, List.of(), NOW, false, "direct load validated: " + v.describe(), "wait");
        }
        // Taken once here, when the shadow is final: the receipt keeps it so a rollback can see later writes.
        detail = detail.with("publishedFingerprint", publisher.fingerprint(names.schema(), loadTable()).encoded());
        publisher.buildDeferredIndexes(runKey(), names, spec.getTarget().getTable());
        if (!ledger.transition(lease, CampaignPhase.Validating, CampaignPhase.Publishing, detail.json())) {
            throw lost();
        }
        return new StepResult(CampaignPhase.Publishing, List.of(), NOW, false, "validated: " + v.describe(), "wait");
    }

    private StepResult publish(CampaignLease lease, CampaignRecord campaign) {
        long rows = ledger.counts(runKey(), maxAttempts()).rowsLoaded();
        LiveTargetBaseline baseline = LiveTargetBaseline.parse(campaign.liveBaseline());
        TableFingerprint published = TableFingerprint.decode(PhaseDetail.parse(campaign.detail()).text("publishedFingerprint"));
        if (baseline == null || baseline.content() == null || published == null) {
            return block(lease, campaign, "publication refused: the ledger holds no live target baseline or shadow"
                    + " fingerprint for this campaign, so writes to the live table could not be ruled out");
        }
        PublicationReceipt receipt;
        try {
            receipt = publisher.publish(lease, names, spec.getTarget().getTable(), rows, baseline, published);
        } catch (ArtifactOwnershipException e) {
            return block(lease, campaign, "publication refused: " + e.getMessage());
        } catch (LiveTargetChangedException e) {
            return block(lease, campaign, "publication refused: " + e.getMessage());
        }
        if (!ledger.transition(lease, CampaignPhase.Publishing, CampaignPhase.Published,
                PhaseDetail.parse(campaign.detail()).with("publicationReceipt", receipt.receiptId()).json())) {
            throw lost();
        }
        return new StepResult(CampaignPhase.Published, List.of(), NOW, false,
                "published " + rows + " rows; backup " + names.backupTable() + " kept", "wait");
    }

    private StepResult handoff(CampaignLease lease, CampaignRecord campaign) {
        if (shadowSwap() && ledger.publicationReceipt(runKey()).isEmpty()) {
            return block(lease, campaign, "phase is Published but no publication receipt exists");
        }
        AnchorCheck check = source.checkAnchor(campaign.anchorXmin());
        if (!check.usable()) {
            return block(lease, campaign, "XMin anchor " + campaign.anchorXmin() + " is no longer usable: " + check.reason()
                    + "; the published table is kept, incremental sync needs a fresh reconciliation");
        }
        HandoffReceipt receipt = ledger.handoffReceipt(runKey())
                .orElse(new HandoffReceipt(runKey(), UUID.randomUUID().toString(), campaign.anchorXmin(), null));
        if (!ledger.recordHandoff(lease, receipt)) {
            throw lost();
        }
        return move(lease, CampaignPhase.Published, CampaignPhase.HandoffCommitted, campaign, NOW,
                "handoff committed at XMin " + campaign.anchorXmin());
    }

    private String drift(CampaignRecord campaign) {
        String sourceSchema = spec.getSource().getSchema();
        String sourceTable = spec.getSource().getTable();
        TableShape sourceShape = source.shape(sourceSchema, sourceTable);
        if (campaign.sourceShapeDigest() != null && !campaign.sourceShapeDigest().equals(sourceShape.digest())) {
            // A chunk column that became nullable may already hold rows no chunk covers: say how many.
            SourceCoverage coverage = source.uncoveredRows(sourceSchema, sourceTable, spec.getChunk().getColumn());
            return "source table " + sourceTable + " changed shape since preparation"
                    + (coverage.complete() ? "" : "; " + coverage.describe());
        }
        TableShape loadShape = publisher.shape(names.schema(), loadTable());
        if (campaign.targetShapeDigest() != null && !campaign.targetShapeDigest().equals(loadShape.digest())) {
            return "load table " + loadTable() + " changed shape since preparation";
        }
        LiveTargetBaseline live = LiveTargetBaseline.parse(campaign.liveBaseline());
        if (live == null) {
            return "the ledger holds no live target baseline for this campaign";
        }
        return TableShapeDiff.describe("live target " + names.schema() + "." + spec.getTarget().getTable(), live.shape(),
                publisher.liveShape(names.schema(), spec.getTarget().getTable()));
    }

    private StepResult move(CampaignLease lease, CampaignPhase from, CampaignPhase to, CampaignRecord campaign,
                            Duration requeue, String message) {
        if (!ledger.transition(lease, from, to, campaign.detail())) {
            throw lost();
        }
        return new StepResult(to, List.of(), requeue, false, message, "wait");
    }

    private StepResult block(CampaignLease lease, CampaignRecord campaign, String reason) {
        if (!ledger.transition(lease, campaign.phase(), CampaignPhase.Blocked,
                PhaseDetail.parse(campaign.detail()).with("blockedReason", reason).json())) {
            throw lost();
        }
        return new StepResult(CampaignPhase.Blocked, List.of(new EngineAction.StopLanes(reason)), NOW, true, reason,
                blockedAction(campaign));
    }

    private String blockedAction(CampaignRecord campaign) {
        return "the live table is untouched; resolve the reason, then start a new campaign with a new backfillId"
                + (shadowSwap() ? " (the shadow " + names.shadowTable() + " is kept for diagnosis)" : "");
    }

    private static StepResult withStop(StepResult r, String reason) {
        return new StepResult(r.phase(), List.of(new EngineAction.StopLanes(reason)), r.requeueAfter(), r.settled(),
                r.message(), r.recommendedAction());
    }

    private static StepResult settled(CampaignRecord campaign, String message, String action) {
        return new StepResult(campaign.phase(), List.of(new EngineAction.StopLanes(message)), IDLE_POLL, true, message, action);
    }

    private CampaignRecord current() {
        return ledger.findByRunKey(runKey()).orElseThrow(() -> new IllegalStateException("campaign " + runKey() + " missing"));
    }

    private LeaseLostException lost() {
        return new LeaseLostException("campaign lease for " + runKey() + " was lost or the phase moved under us; another driver owns it");
    }

    private boolean suspended() {
        return Boolean.TRUE.equals(spec.getSuspend());
    }

    private boolean shadowSwap() {
        return spec.getPublication().getMode() == PublicationMode.SHADOW_SWAP;
    }

    private int maxAttempts() {
        return spec.getMaxChunkAttempts();
    }

    /** Where lanes write: the shadow with shadow_swap, the live table with direct. */
    public String loadTable() {
        return blueprint.loadTable();
    }
}
