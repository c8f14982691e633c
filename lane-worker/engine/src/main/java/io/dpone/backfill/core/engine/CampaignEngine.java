package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.PublicationGroup;
import io.dpone.backfill.core.campaign.PublicationMode;
import io.dpone.backfill.core.campaign.PublicationVerify;
import io.dpone.backfill.core.campaign.RetryPolicy;
import io.dpone.backfill.core.digest.CanonicalJson;
import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.doctor.Preflight;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.campaign.ApprovalMode;
import io.dpone.backfill.core.campaign.ColumnMapping;
import io.dpone.backfill.core.campaign.EtaText;
import io.dpone.backfill.core.campaign.SwapWindow;
import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.core.encoding.RowEncodingChoice;
import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.GroupMember;
import io.dpone.backfill.core.ledger.GroupStanding;
import io.dpone.backfill.core.ledger.HandoffReceipt;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.source.AnchorCheck;
import io.dpone.backfill.core.source.ChunkRowEstimates;
import io.dpone.backfill.core.source.HeapExtentRefusedException;
import io.dpone.backfill.core.source.SourceCatalog;
import io.dpone.backfill.core.source.SourceCoverage;
import io.dpone.backfill.core.source.SourceReadCost;
import io.dpone.backfill.core.publish.ArtifactOwnershipException;
import io.dpone.backfill.core.publish.GroupHeldException;
import io.dpone.backfill.core.publish.LiveTargetBaseline;
import io.dpone.backfill.core.publish.LiveTargetChangedException;
import io.dpone.backfill.core.publish.ReferencedKeysMissingException;
import io.dpone.backfill.core.publish.ShadowPublisher;
import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.core.publish.TableShapeDiff;
import io.dpone.backfill.core.publish.ValidationResult;
import io.dpone.backfill.core.verify.ContentReadBack;
import io.dpone.backfill.core.verify.ContentScope;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The campaign state machine (src-docs/architecture.md section 4) as one step function over the ledger. Each call
 * reads the ledger afresh, does at most one phase's work, and records the result with a transition fenced by the
 * campaign lease, so it is safe to repeat after a crash at any point. The CLI's local runner and the operator's
 * reconciler both drive it; neither re-implements a phase.
 */
public final class CampaignEngine {
    private static final Duration NOW = Duration.ZERO;
    private static final Duration LOADING_POLL = Duration.ofSeconds(2);
    private static final Duration IDLE_POLL = Duration.ofSeconds(5);
    /** How often a campaign waiting for its publication window looks again, at most. */
    private static final Duration WINDOW_POLL = Duration.ofMinutes(1);
    /** The pause before a reconciliation pass or the handoff after one (ADR 0057): one driver round's end. */
    private static final Duration BEFORE_PASS = Duration.ofSeconds(1);

    private final CampaignBlueprint blueprint;
    private final BackfillCampaignSpec spec;
    private final LedgerStore ledger;
    private final ShadowPublisher publisher;
    private final SourceCatalog source;
    private final ArtifactNames names;
    private final FaultPoints faults;
    private final RowEncodingChoice encodings;
    private final ContentReadBack readBack;
    /** The verdict of {@link #open}'s pre-flight, recorded at preparation; null until open() checked. */
    private PreflightResult preflight;
    /** What a publication window is read against: the wall clock, except in tests. */
    private Clock clock = Clock.systemUTC();
    /** Runs the spec's reconciliation passes before the handoff (ADR 0057); none for engines over fakes. */
    private HandoffPasses passes = HandoffPasses.NONE;

    public CampaignEngine(CampaignBlueprint blueprint, LedgerStore ledger, ShadowPublisher publisher, SourceCatalog source) {
        this(blueprint, ledger, publisher, source, FaultPoints.NONE);
    }

    /**
     * {@code faults}: the engine's own crash-test points ({@link FaultPoint#IN_PREPARE}, {@link FaultPoint#BEFORE_PUBLISH},
     * {@link FaultPoint#AFTER_PUBLISH}), for every driver; the publisher fires {@link FaultPoint#IN_PUBLISH} itself.
     */
    public CampaignEngine(CampaignBlueprint blueprint, LedgerStore ledger, ShadowPublisher publisher, SourceCatalog source,
                          FaultPoints faults) {
        this(blueprint, ledger, publisher, source, faults, null);
    }

    /** {@code encodings}: the target adapter's choice of row encoding, recorded at preparation; null records none. */
    public CampaignEngine(CampaignBlueprint blueprint, LedgerStore ledger, ShadowPublisher publisher, SourceCatalog source,
                          FaultPoints faults, RowEncodingChoice encodings) {
        this(blueprint, ledger, publisher, source, faults, encodings, null);
    }

    /**
     * {@code readBack}: reads the shadow's stored content back for the gate before publication (ADR 0036); every
     * driver passes one. Null only for engines over fakes, which then record that no content was compared.
     */
    public CampaignEngine(CampaignBlueprint blueprint, LedgerStore ledger, ShadowPublisher publisher, SourceCatalog source,
                          FaultPoints faults, RowEncodingChoice encodings, ContentReadBack readBack) {
        this.faults = faults;
        this.encodings = encodings;
        this.readBack = readBack;
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
        CampaignRecord record = ledger.createCampaign(blueprint, CanonicalJson.write(spec));
        // Every member records itself when it opens, so each can name the members that hold the group (issue 27).
        group().ifPresent(g -> ledger.joinGroup(runKey(), g.name(), g.termsDigest(), names.schema(), spec.getTarget().getTable()));
        return record;
    }

    public String runKey() {
        return blueprint.identity().runKey();
    }

    /** Reads publication windows against {@code clock} from now on (tests); returns this engine. */
    public CampaignEngine readingTimeFrom(Clock clock) {
        this.clock = clock;
        return this;
    }

    /** Runs {@code spec.reconcile}'s passes through {@code passes} from now on; returns this engine. */
    public CampaignEngine reconcilingWith(HandoffPasses passes) {
        this.passes = passes;
        return this;
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
                    new NextAction.FixThenResume(PhaseDetail.parse(campaign.detail()).text("recoverableReason")));
            case Validating -> validate(lease, campaign);
            case Publishing -> publish(lease, campaign);
            case Published -> reconcileOrHandOff(lease, campaign);
            case HandoffCommitted -> StepResult.settled(CampaignPhase.HandoffCommitted, "published and handed off",
                    "campaign complete", NOW, new NextAction.StartIncrementalSync(ledger.handoffReceipt(runKey())
                            .map(HandoffReceipt::anchorXmin).orElse(campaign.anchorXmin())));
            case Blocked -> StepResult.blocked(PhaseDetail.parse(campaign.detail()).blockReason(),
                    "blocked: " + PhaseDetail.parse(campaign.detail()).text("blockedReason"), IDLE_POLL, blockedAction());
            case Invalid, Reconciling -> throw new IllegalStateException(campaign.phase() + " is not a ledger phase");
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
            // Both writes are fenced: a false result means another driver owns the campaign now.
            stopClaims(lease, false);
            advance(lease, CampaignPhase.Recoverable, CampaignPhase.Loading,
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
        stopClaims(lease, true);
        advance(lease, CampaignPhase.Loading, CampaignPhase.Recoverable, PhaseDetail.parse(campaign.detail()).with("recoverableReason", reason).json());
        return StepResult.settled(CampaignPhase.Recoverable, reason, reason, NOW, new NextAction.FixThenResume(reason));
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
            return block(lease, campaign, BlockReason.TABLE_MISSING, "source table " + spec.getSource().getSchema() + "." + spec.getSource().getTable() + " does not exist");
        }
        if (!liveShape.exists()) {
            return block(lease, campaign, BlockReason.TABLE_MISSING, "target table " + names.schema() + "." + spec.getTarget().getTable()
                    + " does not exist: provision and review it before the campaign");
        }
        HeapExtent heap = null;
        if (physical()) {
            // Measured after the anchor: blocks added later belong to the open-ended last chunk (ADR 0015).
            try {
                heap = source.heapExtent(spec.getSource().getSchema(), spec.getSource().getTable());
            } catch (HeapExtentRefusedException e) {
                return block(lease, campaign, BlockReason.PHYSICAL_UNSUPPORTED, e.getMessage());
            }
        }
        // Which source column loads which target column (issue 27): a pair naming a column that does not exist, or a
        // naming rule that finds two sources for one target, stops here, before any side effect.
        // Target names compared as the target's own catalog compares them (issue 36).
        ColumnMapping mapping = spec.columnMapping().under(liveShape.names());
        List<String> unknown = new ArrayList<>(mapping.unknownColumns(sourceShape.columnNames(), liveShape.columnNames()));
        List<String> missing = List.of();
        try {
            missing = liveShape.requiredMissingIn(sourceShape, mapping);
        } catch (IllegalArgumentException e) {
            unknown.add(e.getMessage());
        }
        if (!unknown.isEmpty()) {
            return block(lease, campaign, BlockReason.TARGET_COLUMNS_MISSING, "the column mapping does not fit the"
                    + " tables: " + String.join("; ", unknown));
        }
        // Columns the target fills itself (nullable, default, identity, generated) may be absent in the source.
        if (!missing.isEmpty()) {
            return block(lease, campaign, BlockReason.TARGET_COLUMNS_MISSING, "target columns missing in the source that the target cannot fill"
                    + " (NOT NULL without default, identity or generation): " + missing);
        }
        if (shadowSwap()) {
            try {
                publisher.prepareShadow(runKey(), names, spec.getTarget().getTable());
            } catch (ArtifactOwnershipException e) {
                return block(lease, campaign, BlockReason.ARTIFACT_OWNERSHIP, e.getMessage());
            }
        }
        TableShape loadShape = publisher.shape(names.schema(), loadTable());
        // Direct mode writes into the live table itself, so only its shape (not its content) is a baseline there.
        String content = shadowSwap() ? publisher.fingerprint(names.schema(), spec.getTarget().getTable()).encoded() : null;
        LiveTargetBaseline baseline = new LiveTargetBaseline(liveShape, content);
        if (!ledger.recordShapes(lease, sourceShape.digest(), loadShape.digest(), baseline.json())) {
            throw new LeaseLostException("could not record table shapes: campaign lease lost");
        }
        // Recorded after the shapes on every preparation attempt, so both always describe the same tables.
        if (encodings != null && !ledger.recordRowEncoding(lease, encodings.choose(loadShape.loadColumnsFrom(sourceShape, mapping)).wireName())) {
            throw new LeaseLostException("could not record the row encoding: campaign lease lost");
        }
        ChunkPlan resolved = ChunkPlanner.resolve(spec.getChunk(), heap);
        ChunkRowEstimates estimates = estimateRows(resolved);
        if (estimates.present() && !ledger.recordChunkEstimates(lease, estimates.rows())) {
            throw new LeaseLostException("could not record chunk row estimates: campaign lease lost");
        }
        PhaseDetail prepared = PhaseDetail.parse(campaign.detail()).withPreflight(preflight)
                .withRowsEstimateBasis(estimates.basis()).withReadCost(predictReads(resolved));
        // Recorded with the move to Prepared, in one fenced write: lanes start later and plan from it.
        String detail = (heap == null ? prepared : prepared.withHeapExtent(heap)).json();
        faults.reached(FaultPoint.IN_PREPARE, -1);
        advance(lease, CampaignPhase.Planned, CampaignPhase.Prepared, detail);
        return StepResult.progressed(CampaignPhase.Prepared,
                shadowSwap() ? "shadow " + names.shadowTable() + " prepared" : "direct load into the live table prepared", NOW);
    }

    /**
     * Rows per chunk for the ETA (ADR 0012). Advisory: an estimate that fails or does not match the plan is recorded
     * as "none" with the reason and the ETA falls back to averages; it never blocks preparation.
     */
    private ChunkRowEstimates estimateRows(ChunkPlan plan) {
        ChunkRowEstimates e;
        try {
            e = source.estimateChunkRows(spec.getSource().getSchema(), spec.getSource().getTable(), plan);
        } catch (RuntimeException ex) {
            return ChunkRowEstimates.none("the source estimate failed: " + ex.getMessage());
        }
        if (e.present() && e.rows().size() != plan.size()) {
            return ChunkRowEstimates.none("the source estimated " + e.rows().size() + " chunks for a plan of "
                    + plan.size());
        }
        return e;
    }

    /** The source reads the plan will cost (ADR 0055), for the status. Advisory like the row estimates. */
    private SourceReadCost predictReads(ChunkPlan plan) {
        try {
            return source.readCost(spec.getSource().getSchema(), spec.getSource().getTable(), plan);
        } catch (RuntimeException ex) {
            return SourceReadCost.unknown("the prediction failed: " + ex.getMessage());
        }
    }

    private StepResult startLoading(CampaignLease lease, CampaignRecord campaign) {
        if (suspended()) {
            return suspend(lease, campaign, CampaignPhase.Prepared, "suspended before loading: no claims");
        }
        return move(lease, CampaignPhase.Prepared, CampaignPhase.Loading, campaign, NOW, "prepared; loading starts");
    }

    private StepResult load(CampaignLease lease, CampaignRecord campaign) {
        if (suspended()) {
            return suspend(lease, campaign, CampaignPhase.Loading, "suspended: no new claims");
        }
        String drift = drift(campaign);
        if (drift != null) {
            stopClaims(lease, true);
            return block(lease, campaign, BlockReason.SCHEMA_DRIFT, drift).stoppingLanes("schema drift");
        }
        int maxAttempts = maxAttempts();
        ChunkCounts counts = ledger.counts(runKey(), maxAttempts);
        if (counts.allCommitted()) {
            return move(lease, CampaignPhase.Loading, CampaignPhase.Validating, campaign, NOW,
                    "all " + counts.total() + " chunks committed");
        }
        int exhausted = spec.getRetryPolicy() == RetryPolicy.NONE ? counts.failed() : counts.failedExhausted();
        if (exhausted > 0) {
            stopClaims(lease, true);
            String reason = ledger.firstRefusedChunk(runKey())
                    .map(c -> "chunk " + c.chunkId() + " was refused by the target on attempt " + c.attempts()
                            + " and is not retried (the same rows fail the same way on every attempt): " + c.lastError())
                    .orElse(exhausted + " chunk(s) failed " + maxAttempts + " time(s)");
            advance(lease, CampaignPhase.Loading, CampaignPhase.Recoverable, PhaseDetail.parse(campaign.detail()).with("recoverableReason", reason).json());
            return StepResult.settled(CampaignPhase.Recoverable, reason, reason, NOW, new NextAction.FixThenResume(reason));
        }
        return StepResult.loading(spec.getParallelWorkers(), counts.committed() + "/" + counts.total() + " chunks committed",
                LOADING_POLL);
    }

    private StepResult suspendedStep(CampaignLease lease, CampaignRecord campaign) {
        if (suspended()) {
            return StepResult.pausing(CampaignPhase.Suspended, "suspended: no new chunk claims", "suspended", IDLE_POLL,
                    new NextAction.LiftSuspension());
        }
        stopClaims(lease, false);
        return move(lease, CampaignPhase.Suspended, CampaignPhase.Loading, campaign, NOW, "resumed from suspension");
    }

    private StepResult validate(CampaignLease lease, CampaignRecord campaign) {
        ChunkCounts counts = ledger.counts(runKey(), maxAttempts());
        // The shadow's indexes come first: a unique index on the key then rules duplicates out without a scan of
        // its own (ADR 0022). A build that fails on bad rows (duplicate or NULL keys) is reported as validation's
        // finding, not as the build's error.
        RuntimeException buildFailure = shadowSwap() ? buildDeferredIndexes() : null;
        // The loaded table's columns and which source column loads each (issue 27), read once for every check below.
        TableShape loadShape = publisher.shape(names.schema(), loadTable());
        LoadColumns loaded = loadShape.loadColumnsFrom(source.shape(spec.getSource().getSchema(), spec.getSource().getTable()),
                spec.columnMapping());
        ValidationResult v = publisher.validate(names.schema(), loadTable(), loaded.targetKey(spec.getUniqueKey()),
                counts.rowsLoaded());
        if (buildFailure instanceof ReferencedKeysMissingException orphans && v.passed()) {
            return blockValidation(lease, PhaseDetail.parse(campaign.detail()).withValidation(v),
                    BlockReason.FOREIGN_KEY_ORPHANS, "validation failed: " + orphans.getMessage() + ": load the"
                            + " referenced table first; the shadow is kept for diagnosis and the live table is untouched");
        }
        if (buildFailure != null && v.passed()) {
            throw buildFailure;
        }
        // The receipts only describe rows some chunk covered: rows no chunk covers must be counted in the source.
        SourceCoverage coverage = coverage();
        // Direct mode appends to a table that may already hold rows: it must hold at least what the receipts say.
        boolean passed = coverage.complete() && (shadowSwap() ? v.passed()
                : v.nullKeys() == 0 && v.duplicateKeys() == 0 && v.actualRows() >= v.expectedRows());
        PhaseDetail detail = PhaseDetail.parse(campaign.detail()).withValidation(v).withCoverage(coverage);
        if (!passed) {
            String reason = "validation failed: " + v.describe() + "; " + coverage.describe()
                    + (buildFailure == null ? "" : "; building the shadow's indexes failed on them: " + buildFailure.getMessage())
                    + (shadowSwap() ? "; the shadow is kept for diagnosis and the live table is untouched" : "");
            return blockValidation(lease, detail, BlockReason.VALIDATION_FAILED, reason);
        }
        if (!shadowSwap()) {
            advance(lease, CampaignPhase.Validating, CampaignPhase.Published, detail.json());
            return StepResult.progressed(CampaignPhase.Published, "direct load validated: " + v.describe(), untilPasses());
        }
        // Read once: the gate compares with them, the fingerprint may be derived from their sum.
        ChunkDigest[] sent = receiptDigests(counts);
        ContentGate gate = contentGate(campaign, sent, loaded);
        detail = gate.record(detail);
        if (!gate.passed()) {
            return blockValidation(lease, detail, BlockReason.CONTENT_MISMATCH,
                    gate.blockReason(names.schema() + "." + loadTable()));
        }
        // Taken once here, when the shadow is final: the receipt keeps it so a rollback can see later writes.
        detail = detail.with("publishedFingerprint", publishedFingerprint(campaign, counts, sent, loadShape, loaded).encoded());
        advance(lease, CampaignPhase.Validating, CampaignPhase.Publishing, detail.json());
        return StepResult.progressed(CampaignPhase.Publishing, "validated: " + v.describe(), NOW);
    }

    /**
     * The validated shadow's fingerprint. When every column of the shadow was loaded and every receipt holds a
     * content digest of its rows, their sum describes the shadow exactly and the target may take it instead of a
     * scan (ADR 0022); otherwise, or when the target cannot use it, the target hashes every row.
     */
    private TableFingerprint publishedFingerprint(CampaignRecord campaign, ChunkCounts counts, ChunkDigest[] sent,
                                                  TableShape shadow, LoadColumns loaded) {
        ChunkDigest receipts = sum(sent);
        if (receipts != null && receipts.rows() == counts.rowsLoaded()) {
            RowEncoding encoding = RowEncoding.fromWire(campaign.rowEncoding());
            if (encoding != null && loaded.target().equals(shadow.columnNames())) {
                Optional<TableFingerprint> derived = publisher.fingerprintOfLoadedRows(encoding, receipts);
                if (derived.isPresent()) {
                    return derived.get();
                }
            }
        }
        return publisher.fingerprint(names.schema(), loadTable());
    }

    /**
     * The read-back gate (ADR 0036): the shadow's stored rows digested as the lanes digested what they sent, compared
     * with every receipt's digest, per chunk for a key-range plan and as a whole for a physical one. Off with
     * {@code publication.verify: counts}; not possible (and recorded so) when a receipt has no digest.
     */
    private ContentGate contentGate(CampaignRecord campaign, ChunkDigest[] sent, LoadColumns columns) {
        if (spec.getPublication().verification() == PublicationVerify.COUNTS) {
            return ContentGate.off("counts", "publication.verify is counts");
        }
        if (readBack == null) {
            return ContentGate.off("counts", "this driver reads no content back");
        }
        for (int id = 0; id < sent.length; id++) {
            if (sent[id] == null) {
                return ContentGate.off("counts", "chunk " + id + "'s receipt records no content digest");
            }
        }
        HeapExtent heap = PhaseDetail.parse(campaign.detail()).heapExtent();
        ChunkPlan plan = ChunkPlanner.resolve(spec.getChunk(), heap);
        ContentScope scope = new ContentScope(names.schema(), loadTable(), columns, spec.getUniqueKey(), plan,
                RowEncoding.fromWire(campaign.rowEncoding()), heap, campaign.anchorXmin());
        return ContentGate.run(readBack, scope, sent);
    }

    /** Each chunk receipt's content digest by chunk id; null where a chunk has no receipt or its receipt no digest. */
    private ChunkDigest[] receiptDigests(ChunkCounts counts) {
        Map<Integer, String> recorded = ledger.chunkDigests(runKey());
        ChunkDigest[] digests = new ChunkDigest[(int) counts.total()];
        for (int id = 0; id < digests.length; id++) {
            digests[id] = ChunkDigest.fromWire(recorded.get(id));
        }
        return digests;
    }

    /** Their sum; null when any is missing. */
    private static ChunkDigest sum(ChunkDigest[] digests) {
        ChunkDigest total = ChunkDigest.EMPTY;
        for (ChunkDigest digest : digests) {
            if (digest == null) {
                return null;
            }
            total = total.plus(digest);
        }
        return total;
    }

    /** Validation found what blocks the campaign: recorded with {@code detail}; the shadow is kept for a look. */
    private StepResult blockValidation(CampaignLease lease, PhaseDetail detail, BlockReason code, String reason) {
        advance(lease, CampaignPhase.Validating, CampaignPhase.Blocked, detail.withBlock(code, reason).json());
        return StepResult.blocked(code, reason, NOW, new NextAction.NewCampaign(names.schema() + "." + loadTable()));
    }

    /** Builds the shadow's deferred indexes; returns the build's failure instead of throwing it, null when built. */
    private RuntimeException buildDeferredIndexes() {
        try {
            publisher.buildDeferredIndexes(runKey(), names, spec.getTarget().getTable(), otherGroupTables());
            return null;
        } catch (LeaseLostException | ArtifactOwnershipException e) {
            throw e;
        } catch (RuntimeException e) {
            return e;
        }
    }

    private StepResult publish(CampaignLease lease, CampaignRecord campaign) {
        // Validated: the swap (and the handoff after it) waits for a person's approval when asked to, then for its
        // window; the live-table baseline still guards it, however long it waits (ADR 0008).
        boolean swapped = ledger.publicationReceipt(runKey()).isPresent();
        if (!swapped && spec.getPublication().approvalMode() == ApprovalMode.MANUAL
                && ledger.publicationApproval(runKey()).isEmpty()) {
            return StepResult.pausing(CampaignPhase.Publishing, "validated; the swap waits for a person's approval"
                    + " (publication.approval: manual)", "awaiting approval", IDLE_POLL, new NextAction.AwaitApproval());
        }
        Optional<SwapWindow> window = SwapWindow.of(spec.getPublication().getWindow());
        Instant now = clock.instant();
        // A swap already committed (its receipt is there) is only replayed below, window or not.
        if (window.isPresent() && !window.get().contains(now) && !swapped) {
            ZonedDateTime opens = window.get().opensAt(now);
            Duration until = Duration.between(now, opens.toInstant());
            String message = "validated; the swap waits for the publication window " + window.get().describe()
                    + ", which opens at " + opens.toOffsetDateTime() + " (in " + EtaText.of(until.getSeconds()) + ")";
            Duration poll = until.compareTo(WINDOW_POLL) < 0 ? until.plusSeconds(1) : WINDOW_POLL;
            return StepResult.pausing(CampaignPhase.Publishing, message, "awaiting the publication window", poll,
                    new NextAction.AwaitWindow(window.get().describe(), opens.toOffsetDateTime().toString()));
        }
        Optional<PublicationGroup> group = group();
        if (group.isPresent() && !swapped) {
            StepResult waiting = awaitGroup(lease, campaign, group.get());
            if (waiting != null) {
                return waiting;
            }
        }
        faults.reached(FaultPoint.BEFORE_PUBLISH, -1);
        long rows = ledger.counts(runKey(), maxAttempts()).rowsLoaded();
        LiveTargetBaseline baseline = LiveTargetBaseline.parse(campaign.liveBaseline());
        TableFingerprint published = TableFingerprint.decode(PhaseDetail.parse(campaign.detail()).text("publishedFingerprint"));
        if (baseline == null || baseline.content() == null || published == null) {
            return block(lease, campaign, BlockReason.LEDGER_INCOMPLETE, "publication refused: the ledger holds no live target baseline or shadow"
                    + " fingerprint for this campaign, so writes to the live table could not be ruled out");
        }
        PublicationReceipt receipt;
        try {
            receipt = group.isPresent() ? publisher.publishGroup(lease, group.get())
                    : publisher.publish(lease, names, spec.getTarget().getTable(), rows, baseline, published);
        } catch (GroupHeldException e) {
            // Another member's part would be refused (or it is no longer ready): nothing changed, this one waits;
            // that member's own driver meets the refusal and blocks it.
            return StepResult.pausing(CampaignPhase.Publishing, "validated; " + e.getMessage(), "held by its publication group",
                    IDLE_POLL, new NextAction.AwaitGroup(group.get().name(), e.memberTable() == null ? List.of() : List.of(e.memberTable())));
        } catch (ArtifactOwnershipException e) {
            return block(lease, campaign, BlockReason.ARTIFACT_OWNERSHIP, "publication refused: " + e.getMessage());
        } catch (LiveTargetChangedException e) {
            return block(lease, campaign, e.contentChanged() ? BlockReason.LIVE_TARGET_WRITTEN : BlockReason.SCHEMA_DRIFT,
                    "publication refused: " + e.getMessage());
        } catch (ReferencedKeysMissingException e) {
            return block(lease, campaign, BlockReason.FOREIGN_KEY_ORPHANS, "publication refused: " + e.getMessage()
                    + ": the shadow is kept and the live table is untouched");
        }
        faults.reached(FaultPoint.AFTER_PUBLISH, -1);
        advance(lease, CampaignPhase.Publishing, CampaignPhase.Published, PhaseDetail.parse(campaign.detail()).with("publicationReceipt", receipt.receiptId()).json());
        return StepResult.progressed(CampaignPhase.Published, "published " + rows + " rows; backup " + names.backupTable() + " kept",
                untilPasses());
    }

    /**
     * A validated group member marks itself ready (approved and inside its window, as checked above), then waits
     * until every member is; null when all are and the group's swap may run (issue 27).
     */
    private StepResult awaitGroup(CampaignLease lease, CampaignRecord campaign, PublicationGroup group) {
        // Polled while the others load: the ledger is written only while this member's row lacks what it records.
        List<GroupMember> members = ledger.groupMembers(group.name());
        Optional<GroupMember> own = members.stream().filter(m -> m.runKey().equals(runKey())).findFirst();
        if (own.isEmpty() || own.get().readiness() == null) {
            // Joined again for a campaign opened before it named its group in the ledger (a repeat keeps the first).
            ledger.joinGroup(runKey(), group.name(), group.termsDigest(), names.schema(), spec.getTarget().getTable());
            long rows = ledger.counts(runKey(), maxAttempts()).rowsLoaded();
            String published = PhaseDetail.parse(campaign.detail()).text("publishedFingerprint");
            if (!ledger.markGroupReady(lease, new GroupMember.Readiness(names.shadowTable(), names.backupTable(), rows,
                    campaign.liveBaseline(), published))) {
                throw lost();
            }
            members = ledger.groupMembers(group.name());
        }
        GroupStanding standing = GroupStanding.of(group, members);
        if (standing.complete()) {
            return null;
        }
        return StepResult.pausing(CampaignPhase.Publishing, "validated; the swap waits for its " + standing.describe(),
                "awaiting its publication group", IDLE_POLL, new NextAction.AwaitGroup(group.name(), standing.holding()));
    }

    private Optional<PublicationGroup> group() {
        return shadowSwap() ? PublicationGroup.of(spec) : Optional.empty();
    }

    /** The other member tables of this campaign's group: their keys are validated at the group's swap. */
    private Set<String> otherGroupTables() {
        return group().map(g -> g.othersThan(spec.getTarget().getTable())).orElse(Set.of());
    }

    /**
     * Published: the spec's reconciliation passes first, one a step, while {@link ReconcileSchedule} asks for one; then
     * the handoff, carrying the last finished pass's anchor (ADR 0057). The ledger stays Published meanwhile: a crash
     * anywhere is judged again from the passes the ledger holds, and a finished pass is never run again.
     */
    private StepResult reconcileOrHandOff(CampaignLease lease, CampaignRecord campaign) {
        if (spec.reconcileMode() == io.dpone.backfill.core.campaign.ReconcileMode.NONE) {
            return handoff(lease, campaign, campaign.anchorXmin(), "");
        }
        if (shadowSwap() && ledger.publicationReceipt(runKey()).isEmpty()) {
            return block(lease, campaign, BlockReason.LEDGER_INCOMPLETE, "phase is Published but no publication receipt exists");
        }
        List<HandoffPasses.Pass> held = passes.passes(runKey());
        Optional<String> done = ReconcileSchedule.done(spec.getReconcile(), held, clock.instant());
        if (done.isEmpty()) {
            HandoffPasses.Pass pass = passes.run(lease);
            // Each pass ends the driver's round, so status and events show it before the next pass or the handoff.
            return StepResult.progressed(CampaignPhase.Reconciling, "reconciliation pass " + pass.pass() + " finished at"
                    + " anchor " + pass.anchor() + ": " + pass.upserted() + " upserted, " + pass.deleted() + " deleted, "
                    + pass.queued() + " queued", BEFORE_PASS);
        }
        Optional<HandoffPasses.Pass> last = HandoffPasses.Pass.lastFinished(held);
        return handoff(lease, campaign, last.map(HandoffPasses.Pass::anchor).orElse(campaign.anchorXmin()),
                last.map(p -> " from reconciliation pass " + p.pass() + " (" + done.get() + ")").orElse(""));
    }

    /**
     * How soon the step after publication follows: at once, or, when reconciliation passes come next, after a pause
     * that ends the driver's round, so its status says Reconciling (and the operator's events are written) before a
     * pass that may take as long as a scan of the source.
     */
    private Duration untilPasses() {
        return spec.reconcileMode() == io.dpone.backfill.core.campaign.ReconcileMode.NONE ? NOW : BEFORE_PASS;
    }

    /** {@code anchor}: the load's, or the last pass's; {@code from} says which, for the message. */
    private StepResult handoff(CampaignLease lease, CampaignRecord campaign, String anchor, String from) {
        if (shadowSwap() && ledger.publicationReceipt(runKey()).isEmpty()) {
            return block(lease, campaign, BlockReason.LEDGER_INCOMPLETE, "phase is Published but no publication receipt exists");
        }
        AnchorCheck check = source.checkAnchor(anchor);
        if (!check.usable()) {
            // The swap has happened: unlike every other block, the live table is the published one now.
            String reason = "XMin anchor " + anchor + " is no longer usable: " + check.reason()
                    + "; the swap happened, so the published table is live (backup kept), and incremental sync needs"
                    + " a fresh reconciliation";
            advance(lease, CampaignPhase.Published, CampaignPhase.Blocked,
                    PhaseDetail.parse(campaign.detail()).withBlock(BlockReason.ANCHOR_UNUSABLE, reason)
                            .with("blockedAfterPublication", "true").json());
            return StepResult.blocked(BlockReason.ANCHOR_UNUSABLE, reason, NOW,
                    new NextAction.ReconcileBeforeSync(names.schema() + "." + spec.getTarget().getTable()));
        }
        HandoffReceipt receipt = ledger.handoffReceipt(runKey())
                .orElse(new HandoffReceipt(runKey(), UUID.randomUUID().toString(), anchor, null));
        if (!ledger.recordHandoff(lease, receipt)) {
            throw lost();
        }
        // A receipt written before a crash keeps its anchor (a receipt is not rewritten); name the pass only if it is this one.
        return move(lease, CampaignPhase.Published, CampaignPhase.HandoffCommitted, campaign, NOW,
                "handoff committed at XMin " + receipt.anchorXmin() + (receipt.anchorXmin().equals(anchor) ? from : ""));
    }

    private String drift(CampaignRecord campaign) {
        String sourceSchema = spec.getSource().getSchema();
        String sourceTable = spec.getSource().getTable();
        TableShape sourceShape = source.shape(sourceSchema, sourceTable);
        if (campaign.sourceShapeDigest() != null && !campaign.sourceShapeDigest().equals(sourceShape.digest())) {
            // A chunk column that became nullable may already hold rows no chunk covers: say how many.
            SourceCoverage coverage = coverage();
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
        advance(lease, from, to, campaign.detail());
        return StepResult.progressed(to, message, requeue);
    }

    private StepResult block(CampaignLease lease, CampaignRecord campaign, BlockReason code, String reason) {
        advance(lease, campaign.phase(), CampaignPhase.Blocked, PhaseDetail.parse(campaign.detail()).withBlock(code, reason).json());
        return StepResult.blocked(code, reason, NOW, blockedAction());
    }

    private StepResult suspend(CampaignLease lease, CampaignRecord campaign, CampaignPhase from, String message) {
        stopClaims(lease, true);
        move(lease, from, CampaignPhase.Suspended, campaign, IDLE_POLL, message);
        return StepResult.pausing(CampaignPhase.Suspended, message, "suspended", IDLE_POLL, new NextAction.LiftSuspension());
    }

    private NextAction blockedAction() {
        return new NextAction.NewCampaign(shadowSwap() ? names.schema() + "." + names.shadowTable() : null);
    }

    private static StepResult settled(CampaignRecord campaign, String message, NextAction next) {
        return StepResult.settled(campaign.phase(), message, message, IDLE_POLL, next);
    }

    /** A fenced phase change along the transition table; a lost fence is a lost lease, never ignored. */
    private void advance(CampaignLease lease, CampaignPhase from, CampaignPhase to, String detailJson) {
        if (!from.canMoveTo(to)) {
            throw new IllegalStateException("campaign " + runKey() + ": " + from + " -> " + to + " is not a transition of the state machine");
        }
        if (!ledger.transition(lease, from, to, detailJson)) {
            throw lost();
        }
    }

    private void stopClaims(CampaignLease lease, boolean stop) {
        if (!ledger.setStopRequested(lease, stop)) {
            throw lost();
        }
    }

    private CampaignRecord current() {
        return ledger.findByRunKey(runKey()).orElseThrow(() -> new IllegalStateException("campaign " + runKey() + " missing"));
    }

    private LeaseLostException lost() {
        return new LeaseLostException("campaign lease for " + runKey() + " was lost or the phase moved under us; another driver owns it");
    }

    /** Rows of the source no chunk covers: NULL chunk keys for key ranges; none by construction for block ranges. */
    private SourceCoverage coverage() {
        if (physical()) {
            return SourceCoverage.blockRanges();
        }
        return source.uncoveredRows(spec.getSource().getSchema(), spec.getSource().getTable(), spec.getChunk().getColumn());
    }

    private boolean physical() {
        return spec.getChunk().getKind() == ChunkKind.PHYSICAL;
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
