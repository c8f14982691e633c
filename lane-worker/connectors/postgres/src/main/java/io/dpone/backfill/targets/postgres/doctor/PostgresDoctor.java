package io.dpone.backfill.targets.postgres.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.doctor.DoctorReport;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.postgres.PostgresCatalog.Column;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.source.postgres.PostgresDoctorConnectivity;
import io.dpone.backfill.source.postgres.PostgresDoctorSource;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.targets.TargetDoctor;
import io.dpone.backfill.targets.postgres.doctor.PostgresDoctorTarget.LiveTarget;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Preflight for a PostgreSQL-to-PostgreSQL campaign: reads both catalogs, creates and changes nothing, and
 * reports every problem it can find at once. {@code backfill doctor} prints it; {@code run}, {@code resume} and the
 * operator run it before a campaign's first side effect and refuse the start on any ERROR. Stable finding codes:
 * <ul>
 * <li>{@code source.connection.*}, {@code target.connection.*}: the connection answers;</li>
 * <li>{@code source.table.missing}, {@code source.table.select-denied}, {@code source.table.row-security},
 * {@code source.table.view} (the source role would see fewer rows than the table holds);</li>
 * <li>{@code source.chunk-column.missing|nullable|type-mismatch};</li>
 * <li>{@code source.unique-key.missing|nullable}, {@code source.unique-key.not-enforced} (WARNING);</li>
 * <li>{@code target.table.missing|not-a-table|select-denied}, {@code target.unique-key.missing};
 * {@code target.table.not-empty} and {@code target.table.being-written} (WARNINGs, shadow_swap only);</li>
 * <li>{@code target.schema.missing|create-denied}, {@code state.schema.create-denied},
 * {@code state.database.create-denied}, {@code target.table.not-owner};</li>
 * <li>{@code target.column.type-incompatible}, {@code target.column.required-missing-in-source},
 * {@code target.column.missing-in-source}, {@code target.column.nullability} and
 * {@code target.column.generated-ignores-source} (WARNINGs); {@code target.column.generated} and
 * {@code target.column.identity} (OK notes: computed by the target; loaded and continued after);</li>
 * <li>{@code target.binding.view|trigger|row-security|publication},
 * {@code target.foreign-key.referenced-empty|referenced-key-missing} (a foreign key that would block the campaign),
 * {@code target.binding.inbound-foreign-key} (OK or WARNING: re-pointed by the swap),
 * {@code target.foreign-key.validated-after-load} (OK),
 * {@code target.grants.copied} (WARNING);</li>
 * <li>{@code target.shadow.foreign|unstamped}, {@code target.backup.exists};</li>
 * <li>{@code <family>.check-failed}: a catalog query itself failed.</li>
 * </ul>
 */
public final class PostgresDoctor implements TargetDoctor {
    @Override
    public DoctorReport check(BackfillCampaignSpec normalisedSpec, ArtifactNames names, SourceTable from,
                              Connection target, String runKey) {
        // The PostgreSQL source and this target are one connector (ADR 0051): its checks share the catalog reader.
        Connection source = from.connection();
        List<Finding> findings = new ArrayList<>();
        Optional<List<Column>> sourceColumns = Optional.empty();
        if (PostgresDoctorConnectivity.check(source, "source", findings)) {
            sourceColumns = guarded("source", findings, () -> new PostgresDoctorSource(source, normalisedSpec, findings).check())
                    .flatMap(o -> o);
        }
        if (PostgresDoctorConnectivity.check(target, "target", findings)) {
            Optional<LiveTarget> live = guarded("target", findings,
                    () -> new PostgresDoctorTarget(target, normalisedSpec, findings).check()).flatMap(o -> o);
            guarded("target.privileges", findings, () -> {
                new PostgresDoctorPrivileges(target, normalisedSpec, findings).check(live.map(LiveTarget::relation).orElse(null));
                return null;
            });
            if (live.isPresent()) {
                if (sourceColumns.isPresent()) {
                    PostgresDoctorColumns.check(sourceColumns.get(), live.get().columns(), normalisedSpec.columnMapping(),
                            findings);
                }
                guarded("target.bindings", findings, () -> {
                    new PostgresDoctorBindings(target, findings).check(live.get().relation());
                    return null;
                });
                if (sourceColumns.isPresent()) {
                    String sourceTable = PostgresIdentifiers.qualified(normalisedSpec.getSource().getSchema(),
                            normalisedSpec.getSource().getTable());
                    List<String> sourceNames = sourceColumns.get().stream().map(Column::name).toList();
                    guarded("target.foreign-keys", findings, () -> {
                        new PostgresDoctorForeignKeys(source, target, sourceTable, column -> {
                            try {
                                return normalisedSpec.columnMapping().sourceOf(column, sourceNames).orElse(null);
                            } catch (IllegalArgumentException e) {
                                return null;
                            }
                        }, findings, names.schema(),
                                io.dpone.backfill.core.campaign.PublicationGroup.of(normalisedSpec)
                                        .map(g -> g.othersThan(normalisedSpec.getTarget().getTable())).orElse(java.util.Set.of()))
                                .check(live.get().relation());
                        return null;
                    });
                }
            }
            guarded("target.artifacts", findings, () -> {
                new PostgresDoctorArtifacts(target, findings).check(names, runKey);
                return null;
            });
        }
        return new DoctorReport(findings);
    }

    private interface Check<T> {
        T run() throws SQLException;
    }

    /** A failing catalog query becomes an ERROR finding of its family; the other families still run. */
    private static <T> Optional<T> guarded(String family, List<Finding> findings, Check<T> check) {
        try {
            return Optional.ofNullable(check.run());
        } catch (SQLException | RuntimeException e) {
            findings.add(Finding.error(family + ".check-failed", "the " + family + " checks failed: " + e.getMessage(),
                    "Check that the role can read pg_catalog and that the connection is healthy, then rerun doctor."));
            return Optional.empty();
        }
    }
}
