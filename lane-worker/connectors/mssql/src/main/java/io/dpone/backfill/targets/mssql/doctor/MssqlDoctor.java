package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.doctor.DoctorReport;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.source.SourceDoctor;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.targets.TargetDoctor;
import io.dpone.backfill.targets.mssql.MssqlIdentifierNames;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorTarget.LiveTarget;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Preflight for a campaign into SQL Server: reads the source (through its adapter) and the target's sys.* catalog
 * views, creates and changes nothing, and reports every problem it can find at once. The source checks are the
 * source's own ({@link SourceDoctor}). Stable finding codes:
 * <ul>
 * <li>{@code source.*} as the source's doctor reports them; {@code source.column.type-unsupported};</li>
 * <li>{@code target.connection.ok|failed};</li>
 * <li>{@code target.table.missing|not-a-table}, {@code target.unique-key.missing}, refused shapes
 * {@code target.table.temporal|memory-optimized|ledger|graph|external|filetable|sparse-column-set}, and features
 * the shadow would drop {@code target.table.masked-columns|encrypted-columns|partitioned|compression}
 * ({@link MssqlRefusedFeature});</li>
 * <li>{@code target.column.type-incompatible}, {@code target.column.required-missing-in-source};
 * {@code target.column.missing-in-source}, {@code target.column.nullability},
 * {@code target.column.computed-ignores-source}, {@code target.unique-key.collation} (WARNINGs);
 * {@code target.column.compatible} (with its value guards), {@code target.column.computed},
 * {@code target.column.identity}, {@code target.column.row-version}, {@code target.columns.compatible} (OK);</li>
 * <li>with {@code spec.reconcile} ({@link MssqlDoctorReconcile}): {@code target.reconcile.row-version-missing|key-type}
 * (ERRORs), {@code target.reconcile.row-version} (OK);</li>
 * <li>{@code target.database.create-table-denied}, {@code target.schema.missing|alter-denied},
 * {@code target.table.alter-denied|select-denied|insert-denied}, {@code target.shadow.load-denied},
 * {@code target.swap.checkident-denied|grants-denied|owner-denied}, {@code state.schema.alter-denied|write-denied},
 * {@code state.database.create-schema-denied} (ERRORs, each with the GRANT or role that fixes it: see
 * {@link MssqlPermissionVerdict}); {@code target.privileges.applock}, {@code target.privileges.ok};</li>
 * <li>{@code target.binding.schema-bound|security-policy} (ERRORs),
 * {@code target.binding.view|trigger|synonym|change-tracking}, {@code target.grants.copied} (WARNINGs),
 * {@code target.bindings.none}, {@code target.grants.none};</li>
 * <li>foreign keys, when the source table was found ({@link MssqlDoctorForeignKeys}):
 * {@code target.foreign-key.referenced-empty|referenced-key-missing} (ERRORs: a key that would block the campaign),
 * {@code target.binding.inbound-foreign-key} (OK, or WARNING when not probed: re-pointed by the swap),
 * {@code target.foreign-key.group-member} (WARNING), {@code target.foreign-key.validated-after-load} (OK);</li>
 * <li>{@code target.shadow.free|owned|foreign|unstamped}, {@code target.backup.free|owned|exists};</li>
 * <li>{@code <family>.check-failed}: a catalog query itself failed; the other families still ran.</li>
 * </ul>
 */
public final class MssqlDoctor implements TargetDoctor {
    private static final String SYS_CATALOG = "the sys.* catalog views";

    @Override
    public DoctorReport check(BackfillCampaignSpec normalisedSpec, ArtifactNames names, SourceTable source,
                              Connection target, String runKey) {
        List<Finding> findings = new ArrayList<>();
        boolean sourceTable = false;
        SourceDoctor sourceDoctor = source.adapter().doctor();
        String sourceCatalog = sourceDoctor.catalogName();
        if (sourceDoctor.connected(source.connection(), findings)) {
            sourceTable = MssqlDoctorGuard.guarded("source", sourceCatalog, findings,
                    () -> sourceDoctor.checkTable(source.connection(), normalisedSpec, findings)).orElse(false);
        }
        if (!MssqlDoctorConnectivity.check(target, findings)) {
            return new DoctorReport(findings);
        }
        Optional<LiveTarget> live = MssqlDoctorGuard.guarded("target", SYS_CATALOG, findings,
                () -> new MssqlDoctorTarget(target, normalisedSpec, findings).check()).flatMap(o -> o);
        MssqlDoctorGuard.run("target.privileges", findings,
                () -> new MssqlDoctorPrivileges(target, normalisedSpec, findings).check(live.orElse(null)));
        if (live.isPresent()) {
            if (sourceTable) {
                MssqlDoctorGuard.guarded("target.columns", sourceCatalog + " and " + SYS_CATALOG, findings, () -> {
                    new MssqlDoctorColumns(source, target, normalisedSpec, findings).check(live.get());
                    return Boolean.TRUE;
                });
            }
            new MssqlDoctorBindings(target, findings).check(live.get());
            MssqlDoctorGuard.guarded("target.reconcile", SYS_CATALOG, findings, () -> {
                MssqlDoctorReconcile.check(normalisedSpec, live.get(), MssqlIdentifierNames.of(target), findings);
                return Boolean.TRUE;
            });
            if (sourceTable) {
                MssqlDoctorGuard.guarded("target.foreign-keys", sourceCatalog + " and " + SYS_CATALOG, findings, () -> {
                    MssqlDoctorForeignKeys.of(source, target, normalisedSpec, findings).check(live.get());
                    return Boolean.TRUE;
                });
            }
            MssqlDoctorGuard.run("target.features", findings,
                    () -> new MssqlDoctorFeatures(new MssqlDoctorSql(target), findings).check(live.get()));
        }
        MssqlDoctorGuard.run("target.artifacts", findings, () -> new MssqlDoctorArtifacts(target, findings).check(names, runKey));
        return new DoctorReport(findings);
    }
}
