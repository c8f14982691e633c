package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.core.engine.PhaseDetail;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.reconcile.PassRecord;
import io.dpone.backfill.core.reconcile.PassSource;
import io.dpone.backfill.core.reconcile.PassTarget;
import io.dpone.backfill.core.reconcile.ReconcileLedger;
import io.dpone.backfill.core.reconcile.ReconcilePass;
import io.dpone.backfill.source.ChunkReading;
import io.dpone.backfill.source.SourceAdapter;
import io.dpone.backfill.targets.PassTable;
import io.dpone.backfill.targets.TargetAdapter;

import java.sql.Connection;
import java.util.List;
import java.util.function.Consumer;

/**
 * Assembles one reconciliation pass of a published campaign (issue 38, ADR 0054) from the registry's adapters: the
 * source's snapshot, the published table under the target's names, the pass's ranges, and where it starts from
 * (the last finished pass's anchor, else the handoff's).
 */
public final class CampaignReconciliation {
    /** Why a campaign cannot be reconciled (not handed off, rolled back). */
    public static final class NotReconcilableException extends RuntimeException {
        public NotReconcilableException(String message) {
            super(message);
        }
    }

    private CampaignReconciliation() {
    }

    /**
     * Refuses a campaign a pass cannot follow, naming why, before anything is written. A pass follows publication:
     * a campaign handed off, or one Published whose driver runs {@code spec.reconcile}'s passes before the handoff
     * (ADR 0057; the handoff then carries the last pass's anchor).
     */
    public static CampaignRecord requireHandedOff(CampaignBlueprint blueprint, LedgerStore ledger) {
        String runKey = blueprint.identity().runKey();
        String id = blueprint.definition().spec().getBackfillId();
        if (ledger.peek(runKey).isEmpty()) {
            throw new NotReconcilableException("campaign " + id + " (run key " + runKey + ") was never started: there is"
                    + " no published table to reconcile");
        }
        CampaignRecord campaign = ledger.findByRunKey(runKey).orElseThrow();
        if (ledger.rollbackReceipt(runKey).isPresent()) {
            throw new NotReconcilableException("campaign " + id + " was rolled back: the live table is no longer the one it"
                    + " published");
        }
        if (ledger.handoffReceipt(runKey).isEmpty() && campaign.phase() != io.dpone.backfill.core.campaign.CampaignPhase.Published) {
            throw new NotReconcilableException("campaign " + id + " has not published yet (phase " + campaign.phase()
                    + "): reconciliation follows publication; run the campaign to Published (or HandoffCommitted) first");
        }
        return campaign;
    }

    /**
     * Runs (or resumes) the campaign's next pass under {@code lease}. The one entry point: {@code backfill reconcile},
     * the bench and the drivers' passes before the handoff ({@link DriverPasses}) all call it.
     */
    public static PassRecord run(CampaignBlueprint blueprint, LedgerStore ledger, ReconcileLedger passes, Connection source,
                                 Connection target, CampaignLease lease, java.time.Duration leaseTtl, FaultPoints faults,
                                 Consumer<String> log) throws Exception {
        BackfillCampaignSpec spec = blueprint.definition().spec();
        CampaignRecord campaign = requireHandedOff(blueprint, ledger);
        TargetAdapter targetAdapter = Connectors.target(spec.getTarget().getType());
        SourceAdapter sourceAdapter = Connectors.source(spec.getSource().getType());
        HeapExtent heap = PhaseDetail.parse(campaign.detail()).heapExtent();
        ChunkPlan plan = ChunkPlanner.resolve(spec.getChunk(), heap);
        String schema = blueprint.artifacts().schema();
        String live = spec.getTarget().getTable();
        LoadColumns loaded = targetAdapter.catalog(target).shape(schema, live)
                .loadColumnsFrom(sourceAdapter.catalog(source).shape(spec.getSource().getSchema(), spec.getSource().getTable()),
                        spec.columnMapping());
        List<String> targetKey = loaded.targetKey(spec.getUniqueKey());
        String since = passes.lastFinished(lease.runKey()).map(PassRecord::anchor).orElse(campaign.anchorXmin());
        PassTable table = new PassTable(schema, live, loaded, targetKey, plan,
                plan.kind().keyed() ? loaded.targetOf(plan.column()) : null, spec.getState().getSchema(), lease.runKey());
        try (PassTarget into = targetAdapter.passTarget(target, table);
             PassSource from = sourceAdapter.passSource(source, new ChunkReading(plan, spec.getSource().getSchema(),
                spec.getSource().getTable(), loaded.source(), heap, campaign.anchorXmin(), null), spec.getUniqueKey())) {
            return new ReconcilePass(passes, faults, log).run(lease, plan, since, from, into, held -> {
                if (!ledger.renewLease(held, leaseTtl)) {
                    throw new io.dpone.backfill.core.engine.LeaseLostException("campaign lease lost for run key "
                            + held.runKey() + " during reconciliation: another driver took over; the ranges committed"
                            + " so far stay, the next `backfill reconcile` finishes the pass");
                }
            });
        }
    }
}
