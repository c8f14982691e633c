package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.ColumnMapping;
import io.dpone.backfill.core.campaign.IdentifierComparison;
import io.dpone.backfill.core.campaign.PublicationGroup;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.ForeignKeyFindings;
import io.dpone.backfill.source.SourceKeyProbe;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.targets.mssql.MssqlIdentifierNames;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorKeyValues.NotComparable;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorKeyValues.Outcome;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorKeyValues.Probed;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorKeys.Column;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorKeys.Key;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorTarget.LiveTarget;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * What the live table's foreign keys will do to the campaign, predicted from both catalogs and, where it is cheap,
 * the rows (issue 36, as {@code PostgresDoctorForeignKeys} on PostgreSQL). Outbound keys (a key of the table to
 * itself among them) are created on the shadow after loading and checked there before publication: a key whose
 * referenced table is empty on the target while source rows reference it would block, and is refused here.
 * Inbound keys (other tables referencing the live table) are re-pointed at the published table in the swap and
 * checked there: when a referencing table holds values (tuples, for a composite key) the source table lacks,
 * publication would block, and is refused here; when there are too many, or their type cannot be compared, the
 * check is left to publication. A disabled or untrusted key is carried as it is, WITH NOCHECK, so no row is
 * checked against it and nothing is probed. Keys of an earlier campaign's backup are skipped, as the swap skips them.
 */
final class MssqlDoctorForeignKeys {

    private final Connection target;
    private final List<Finding> findings;
    private final SourceTable sourceTable;
    private final UnaryOperator<String> sourceColumn;
    private final IdentifierComparison names;
    private final Set<String> groupTables;
    private final SourceKeyProbe probe;
    private final MssqlDoctorKeyValues values;
    private final MssqlDoctorSql sql;

    private MssqlDoctorForeignKeys(SourceTable source, Connection target, List<Finding> findings,
                                   UnaryOperator<String> sourceColumn, IdentifierComparison names, Set<String> groupTables) {
        this.target = target;
        this.findings = findings;
        this.sourceTable = source;
        this.sourceColumn = sourceColumn;
        this.names = names;
        this.groupTables = groupTables;
        this.probe = source.keyProbe();
        this.values = new MssqlDoctorKeyValues(target, source);
        this.sql = new MssqlDoctorSql(target);
    }

    /**
     * The check for {@code spec}'s campaign: live-table columns map to source columns as the columns check maps them,
     * and names compare as the target database compares identifiers (a group member spelled {@code Orders} is the
     * table {@code orders} under a {@code _CI} collation).
     */
    static MssqlDoctorForeignKeys of(SourceTable source, Connection target, BackfillCampaignSpec spec,
                                     List<Finding> findings) throws SQLException {
        IdentifierComparison names = MssqlIdentifierNames.of(target);
        ColumnMapping mapping = spec.columnMapping().under(names);
        List<String> sourceNames = source.adapter().catalog(source.connection()).shape(source.schema(), source.table())
                .columnNames();
        UnaryOperator<String> sourceColumn = column -> {
            try {
                return mapping.sourceOf(column, sourceNames).orElse(null);
            } catch (IllegalArgumentException e) {
                return null; // the columns check names the ambiguity
            }
        };
        Set<String> group = PublicationGroup.of(spec).map(g -> g.othersThan(spec.getTarget().getTable())).orElse(Set.of());
        return new MssqlDoctorForeignKeys(source, target, findings, sourceColumn, names, group);
    }

    void check(LiveTarget live) throws SQLException {
        for (Key key : new MssqlDoctorKeys(target).of(live.objectId())) {
            if (!key.outbound() && key.fromBackup()) {
                continue; // a backup's key is not re-pointed (ADR 0038)
            }
            if (key.disabled() || key.notTrusted()) {
                unchecked(key);
            } else if (key.selfReference()) {
                findings.add(ForeignKeyFindings.checkedAfterLoad(key.describe() + ", which references the live table itself,"));
            } else if (groupMember(key, live)) {
                // Not probed: the other member's source table is named only in its own campaign.
                findings.add(ForeignKeyFindings.groupMember(key.describe()));
            } else if (key.outbound()) {
                outbound(key);
            } else {
                inbound(key);
            }
        }
    }

    /** Both names as this database compares identifiers, not as Java compares strings. */
    private boolean groupMember(Key key, LiveTarget live) {
        return names.same(key.otherSchema(), live.schema())
                && groupTables.stream().anyMatch(member -> names.same(member, key.otherTable()));
    }

    /** A disabled or untrusted key is carried as it is, WITH NOCHECK: SQL Server checks no existing row against it. */
    private void unchecked(Key key) {
        String state = key.disabled() ? "disabled" : "not trusted";
        if (key.outbound()) {
            findings.add(Finding.ok("target.foreign-key.validated-after-load", "foreign key " + key.describe()
                    + " is " + state + " on the live table: it is created on the shadow after loading as it is (WITH"
                    + " NOCHECK" + (key.disabled() ? ", disabled" : "") + "), so SQL Server checks none of the loaded"
                    + " rows against it; not probed"));
        } else {
            findings.add(Finding.ok("target.binding.inbound-foreign-key", "foreign key " + key.describe()
                    + " references the live table and is " + state + ": the swap re-points it at the published table"
                    + " as it is (WITH NOCHECK" + (key.disabled() ? ", disabled" : "") + "), so SQL Server checks none"
                    + " of the rows of " + key.schema() + "." + key.table() + " against it; not probed"));
        }
    }

    private void outbound(Key key) throws SQLException {
        List<String> loadedFrom = key.columns().stream().map(Column::name).map(sourceColumn).toList();
        boolean referencedEmpty = sql.integer("SELECT TOP (1) 1 FROM " + key.qualifiedReferenced()) == null;
        String referenced = key.referencedSchema() + "." + key.referencedTable();
        if (referencedEmpty && !loadedFrom.contains(null) && probe.anyRowReferencing(sourceTable.schema(), sourceTable.table(), loadedFrom)) {
            findings.add(ForeignKeyFindings.referencedEmpty(key.describe(), referenced));
            return;
        }
        findings.add(ForeignKeyFindings.checkedAfterLoad(key.describe()));
    }

    private void inbound(Key key) throws SQLException {
        String subject = "foreign key " + key.describe() + " references the live table";
        String referencing = key.schema() + "." + key.table();
        List<String> loadedFrom = key.referencedColumns().stream().map(sourceColumn).toList();
        if (loadedFrom.contains(null)) {
            findings.add(ForeignKeyFindings.referencedColumnsNotLoaded(subject, key.referencedColumns(), referencing));
            return;
        }
        Outcome outcome = values.probe(key, loadedFrom);
        if (outcome instanceof NotComparable c) {
            findings.add(Finding.warning("target.binding.inbound-foreign-key", subject + ": its column " + c.column()
                    + " is " + c.type() + ", whose values doctor cannot compare exactly with the source's " + c.sourceType()
                    + "; the swap re-points it at the published table and checks it there, not probed here", ForeignKeyFindings.leftToTheSwap(referencing)));
        } else if (outcome instanceof Probed p) {
            probed(key, subject, p);
        } else {
            findings.add(ForeignKeyFindings.tooManyToProbe(subject, MssqlDoctorKeyValues.PROBED_VALUES, referencing));
        }
    }

    private void probed(Key key, String subject, Probed p) {
        String referencing = key.schema() + "." + key.table();
        if (!p.missing().isEmpty()) {
            findings.add(ForeignKeyFindings.valuesMissingInSource(subject, p.missing(), p.distinct(), sourceTable.shown(), referencing));
        } else if (!p.unsure().isEmpty()) {
            findings.add(Finding.warning("target.binding.inbound-foreign-key", subject + ": " + p.unsure().size()
                    + " of its " + p.distinct() + " distinct values are not in the source table " + sourceTable.shown()
                    + " as written (e.g. " + sample(p.unsure()) + "); SQL Server may still match them under the"
                    + " column's collation (accents, width, kana or the case of letters beyond A-Z), which doctor does"
                    + " not imitate; the swap re-points the key at the published table and checks it there",
                    "Check those values against the source. " + ForeignKeyFindings.leftToTheSwap(referencing)));
        } else {
            findings.add(ForeignKeyFindings.allValuesInSource(subject, p.distinct()));
        }
    }

    private static String sample(List<String> values) {
        return String.join(", ", values.subList(0, Math.min(ForeignKeyFindings.SHOWN, values.size())));
    }
}
