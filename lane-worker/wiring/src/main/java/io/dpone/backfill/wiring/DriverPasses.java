package io.dpone.backfill.wiring;

import io.dpone.backfill.core.engine.HandoffPasses;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.reconcile.PassRecord;
import io.dpone.backfill.core.reconcile.ReconcileLedger;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The drivers' reconciliation passes before the handoff (issue 38, ADR 0057): the engine's {@link HandoffPasses} over
 * {@link CampaignReconciliation#run}, the one entry point {@code backfill reconcile} uses too, on the driver's own
 * connections and lease.
 */
final class DriverPasses implements HandoffPasses {
    private final CampaignBlueprint blueprint;
    private final LedgerStore ledger;
    private final Connection source;
    private final Connection target;
    private final Duration leaseTtl;
    private final FaultPoints faults;
    private final Supplier<Consumer<String>> log;

    DriverPasses(CampaignBlueprint blueprint, LedgerStore ledger, Connection source, Connection target, Duration leaseTtl,
                 FaultPoints faults, Supplier<Consumer<String>> log) {
        this.blueprint = blueprint;
        this.ledger = ledger;
        this.source = source;
        this.target = target;
        this.leaseTtl = leaseTtl;
        this.faults = faults;
        this.log = log;
    }

    private ReconcileLedger passLedger() {
        var spec = blueprint.definition().spec();
        return Connectors.target(spec.getTarget().getType()).reconcileLedger(target, spec.getState().getSchema());
    }

    @Override
    public List<Pass> passes(String runKey) {
        // Asked only of a campaign whose spec runs passes: a target that cannot reconcile says so here, by name.
        ReconcileLedger passes = passLedger();
        return passes.present() ? passes.passes(runKey).stream().map(DriverPasses::summary).toList() : List.of();
    }

    @Override
    public Pass run(CampaignLease lease) {
        ReconcileLedger passes = passLedger();
        passes.ensureSchema();
        try {
            return summary(CampaignReconciliation.run(blueprint, ledger, passes, source, target, lease, leaseTtl, faults,
                    log.get()));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new PassFailedException(e);
        }
    }

    static Pass summary(PassRecord p) {
        return new Pass(p.pass(), p.anchor(), p.startedAt(), p.finished(), p.totals().upserted(), p.totals().deleted(),
                p.totals().queued());
    }

    /** A pass's checked failure (a SQL error), unchecked for the engine's step; its cause says what failed. */
    static final class PassFailedException extends RuntimeException {
        PassFailedException(Exception cause) {
            super("reconciliation pass failed: " + cause.getMessage(), cause);
        }
    }
}
