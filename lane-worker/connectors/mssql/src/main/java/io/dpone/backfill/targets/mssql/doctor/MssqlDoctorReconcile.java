package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.ColumnMapping;
import io.dpone.backfill.core.campaign.ReconcileMode;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorTarget.LiveTarget;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorTarget.TargetColumn;
import io.dpone.backfill.core.campaign.IdentifierComparison;
import io.dpone.backfill.targets.mssql.reconcile.MssqlReconcileRequirements;

import java.util.List;
import java.util.Optional;

/**
 * With {@code spec.reconcile}, the passes after publication need of the reviewed table what ADR 0056 names: a
 * rowversion column (the shadow copies it, so the published table has it from its first row) and key columns whose
 * values digest as the source's. Checked here so a campaign that could not reconcile is refused before its load,
 * not after it.
 */
final class MssqlDoctorReconcile {
    private MssqlDoctorReconcile() {
    }

    static void check(BackfillCampaignSpec spec, LiveTarget live, IdentifierComparison targetNames, List<Finding> findings) {
        if (spec.reconcileMode() == ReconcileMode.NONE) {
            return;
        }
        Optional<TargetColumn> version = live.columns().stream()
                .filter(c -> MssqlReconcileRequirements.rowVersion(c.typeName())).findFirst();
        if (version.isPresent()) {
            findings.add(Finding.ok("target.reconcile.row-version", "spec.reconcile: passes tell the rows the product wrote"
                    + " from rows others write in " + live.shown() + " after publication by its rowversion column "
                    + version.get().name()));
        } else {
            findings.add(Finding.error("target.reconcile.row-version-missing", "spec.reconcile is " + spec.reconcileMode()
                    .wireName() + ", but the reviewed table " + live.shown() + " has no rowversion column: passes into SQL"
                    + " Server tell the rows the product wrote from rows others write there after publication by it (ADR 0056)",
                    "Add one to the reviewed target table before the load (the shadow copies it): "
                            + MssqlReconcileRequirements.addRowVersion(live.schema(), live.table())
                            + "; or remove spec.reconcile."));
        }
        ColumnMapping mapping = spec.columnMapping().under(targetNames);
        List<String> targetColumns = live.columns().stream().map(TargetColumn::name).toList();
        for (String sourceKey : spec.getUniqueKey()) {
            Optional<TargetColumn> key;
            try {
                key = mapping.targetOf(sourceKey, targetColumns).flatMap(live::column);
            } catch (IllegalArgumentException e) {
                continue; // named by the columns' mapping finding
            }
            if (key.isPresent() && !MssqlReconcileRequirements.digestibleKey(key.get().typeName())) {
                findings.add(Finding.error("target.reconcile.key-type", "spec.reconcile is set, but unique key column "
                        + key.get().name() + " of " + live.shown() + " is " + key.get().typeName() + ": passes compare"
                        + " keys with the source's by their text, which only " + MssqlReconcileRequirements.KEY_TYPES
                        + " key columns print alike", "Remove spec.reconcile, or key the campaign on columns of those types."));
            }
        }
    }
}
