package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.ColumnMapping;
import io.dpone.backfill.targets.mssql.MssqlIdentifierNames;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.Severity;
import io.dpone.backfill.core.publish.ColumnShape;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.source.SourceColumn;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.source.UnsupportedSourceTypeException;
import io.dpone.backfill.targets.mssql.MssqlTableColumns;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorTarget.LiveTarget;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorTarget.TargetColumn;
import io.dpone.backfill.targets.mssql.reconcile.MssqlReconcileRequirements;
import io.dpone.backfill.targets.mssql.types.MssqlColumn;
import io.dpone.backfill.targets.mssql.types.MssqlTypeCheck;
import io.dpone.backfill.targets.mssql.types.MssqlTypeMap;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Every live column against the source, through the SQL Server type map the chunk sink uses: each loaded pair is
 * compatible (with the value guards listed) or refused naming both columns and types; a column the source lacks
 * must be fillable by the target; text unique-key columns are compared the SQL Server way, which can make keys
 * distinct in PostgreSQL collide.
 */
final class MssqlDoctorColumns {
    private final SourceTable source;
    private final Connection target;
    private final BackfillCampaignSpec spec;
    private final List<Finding> findings;

    MssqlDoctorColumns(SourceTable source, Connection target, BackfillCampaignSpec spec, List<Finding> findings) {
        this.source = source;
        this.target = target;
        this.spec = spec;
        this.findings = findings;
    }

    void check(LiveTarget live) throws SQLException {
        TableShape sourceShape = source.adapter().catalog(source.connection()).shape(source.schema(), source.table());
        // Target columns are matched as this database compares names (issue 36): InvoiceId is invoiceid under _CI.
        ColumnMapping mapping = spec.columnMapping().under(MssqlIdentifierNames.of(target));
        List<String> sourceNames = sourceShape.columnNames();
        List<String> problems = new ArrayList<>(mapping.unknownColumns(sourceNames,
                live.columns().stream().map(TargetColumn::name).toList()));
        // Each target column's source column under the campaign's mapping (issue 27); absent: none loads it.
        Map<String, String> sourceOf = new HashMap<>();
        for (TargetColumn column : live.columns()) {
            try {
                mapping.sourceOf(column.name(), sourceNames).ifPresent(s -> sourceOf.put(column.name(), s));
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        List<TargetColumn> loadedColumns = live.columns().stream().filter(c -> !c.computed() && c.systemType()
                && sourceOf.containsKey(c.name())).toList();
        List<String> loaded = loadedColumns.stream().map(TargetColumn::name).toList();
        Map<String, SourceColumn> planned = plan(loadedColumns.stream().map(c -> sourceOf.get(c.name())).toList());
        Map<String, MssqlColumn> into = new HashMap<>();
        if (!loaded.isEmpty()) {
            MssqlTableColumns.of(target, live.schema(), live.table(), loaded).forEach(c -> into.put(c.name(), c));
        }
        int before = findings.size();
        for (String problem : problems) {
            findings.add(Finding.error("target.column.mapping", problem, "Fix spec.columns (map, naming) so that"
                    + " every pair names existing columns and each target column has at most one source column."));
        }
        for (TargetColumn column : live.columns()) {
            String sourceName = sourceOf.get(column.name());
            Optional<ColumnShape> from = sourceName == null ? Optional.empty() : sourceShape.column(sourceName);
            if (column.computed()) {
                computed(column, from.isPresent());
            } else if (from.isEmpty()) {
                missingInSource(column);
            } else if (!column.systemType()) {
                findings.add(Finding.error("target.column.type-incompatible", "source column \"" + sourceName
                        + "\" " + from.get().type() + " -> target column \"" + column.name() + "\" "
                        + column.typeName() + ": incompatible, the loader writes no CLR type (geography, geometry,"
                        + " hierarchyid)", "Give the target column a type the SQL Server type map accepts, or leave"
                        + " it out of the reviewed target table."));
            } else if (planned.containsKey(sourceName)) {
                loaded(column, from.get(), planned.get(sourceName), into.get(column.name()));
            }
        }
        uniqueKeyCollations(live, mapping);
        if (findings.stream().skip(before).noneMatch(f -> f.severity() != Severity.OK)) {
            findings.add(Finding.ok("target.columns.compatible", "every column of " + live.shown()
                    + " is loadable from the source"));
        }
    }

    /**
     * Each loaded column as the source will hand it over. The source stops at the first unsupported type, so after
     * a refusal each column is asked for alone and every unsupported one is reported.
     */
    private Map<String, SourceColumn> plan(List<String> columns) throws SQLException {
        Map<String, SourceColumn> planned = new HashMap<>();
        if (columns.isEmpty()) {
            return planned;
        }
        try {
            source.columns(columns).forEach(c -> planned.put(c.name(), c));
            return planned;
        } catch (UnsupportedSourceTypeException first) {
            for (String column : columns) {
                try {
                    planned.put(column, source.columns(List.of(column)).get(0));
                } catch (UnsupportedSourceTypeException e) {
                    findings.add(Finding.error("source.column.type-unsupported", "source column " + e.column()
                            + " has type " + e.type() + ", which the loader cannot read: " + e.getMessage(),
                            "Change the source column's type, or leave " + e.column() + " out of the reviewed target"
                                    + " table (it is then not loaded)."));
                }
            }
            return planned;
        }
    }

    private void loaded(TargetColumn column, ColumnShape from, SourceColumn planned, MssqlColumn into) {
        MssqlTypeCheck check = MssqlTypeMap.check(planned, into);
        if (!check.isCompatible()) {
            findings.add(Finding.error("target.column.type-incompatible", check.message(), "Align the target"
                    + " column's type with the source in the reviewed target table (the SQL Server type map lists"
                    + " the accepted pairs), or change the source column."));
            return;
        }
        List<String> rules = check.binding().rules();
        findings.add(Finding.ok("target.column.compatible", check.message() + (rules.isEmpty() ? ""
                : "; a value breaking a guard fails its chunk, naming the row")));
        if (column.identity()) {
            findings.add(Finding.ok("target.column.identity", "identity column " + column.name() + " is loaded with"
                    + " the source's values; after publication it continues after the highest loaded value"));
        }
        if (!column.nullable() && from.nullable()) {
            findings.add(Finding.warning("target.column.nullability", "column " + column.name() + " is NOT NULL in"
                    + " the target but allows NULL in the source: a NULL fails its chunk", "Make sure the source"
                    + " holds no NULLs in this column, or allow NULL in the target."));
        }
    }

    /** Computed columns are left out of the load; the target computes them from the loaded columns. */
    private void computed(TargetColumn column, boolean inSource) {
        if (inSource) {
            findings.add(Finding.warning("target.column.computed-ignores-source", "target column " + column.name()
                    + " is computed by the target: the source's " + column.name() + " values are not loaded",
                    "Confirm that the computed column's expression gives the values the source holds."));
        } else {
            findings.add(Finding.ok("target.column.computed", "target column " + column.name() + " is computed:"
                    + " the target computes it, it is never loaded"));
        }
    }

    private void missingInSource(TargetColumn column) {
        if (MssqlReconcileRequirements.rowVersion(column.typeName())) {
            // The target stamps it on every insert and update; a load cannot write it, a default cannot exist on it.
            findings.add(Finding.ok("target.column.row-version", "target column " + column.name() + " is a rowversion:"
                    + " the target stamps it on every write, it is never loaded"));
        } else if (!column.nullable() && !column.hasDefault() && !column.identity()) {
            findings.add(Finding.error("target.column.required-missing-in-source", "target column " + column.name()
                    + " is NOT NULL without a default and does not exist in the source: every row would fail",
                    "Add a default to the target column, allow NULL, or add the column to the source."));
        } else {
            String filled = column.identity() ? "identity values generated by the target"
                    : column.hasDefault() ? "its default" : "NULL";
            findings.add(Finding.warning("target.column.missing-in-source", "target column " + column.name()
                    + " does not exist in the source: loaded rows get " + filled, "Confirm that this is what the"
                    + " published table should hold, or add the column to the source."));
        }
    }

    /**
     * Only character columns have a collation. SQL Server compares text with trailing spaces ignored in every collation, and a _CI or _AI collation ignores
     * case or accents: keys PostgreSQL keeps apart ('a' and 'a ', 'a' and 'A') may be one key in the target.
     */
    private void uniqueKeyCollations(LiveTarget live, ColumnMapping mapping) {
        List<String> targetNames = live.columns().stream().map(TargetColumn::name).toList();
        for (String sourceKey : spec.getUniqueKey()) {
            Optional<String> key;
            try {
                key = mapping.targetOf(sourceKey, targetNames);
            } catch (IllegalArgumentException e) {
                continue; // named by the mapping's finding
            }
            Optional<TargetColumn> column = key.flatMap(live::column);
            if (column.isEmpty() || column.get().collation() == null) {
                continue;
            }
            List<String> ignored = new ArrayList<>();
            String collation = column.get().collation();
            List<String> parts = List.of(collation.toUpperCase(Locale.ROOT).split("_"));
            if (parts.contains("CI")) {
                ignored.add("case");
            }
            if (parts.contains("AI")) {
                ignored.add("accents");
            }
            ignored.add("trailing spaces");
            findings.add(Finding.warning("target.unique-key.collation", "unique key column " + key.get() + " is "
                    + column.get().typeName() + " with collation " + collation + ", which ignores "
                    + String.join(", ", ignored) + " when comparing: keys distinct in PostgreSQL may be equal in the"
                    + " target, and validation would then block publication", "Confirm that the source's keys stay"
                    + " distinct under that comparison, or give the column a case- and accent-sensitive collation"
                    + " (for example Latin1_General_100_BIN2) in the reviewed target table."));
        }
    }
}
