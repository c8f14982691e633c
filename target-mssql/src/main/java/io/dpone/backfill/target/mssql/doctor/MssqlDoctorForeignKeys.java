package io.dpone.backfill.target.mssql.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.ColumnMapping;
import io.dpone.backfill.core.campaign.IdentifierComparison;
import io.dpone.backfill.core.campaign.PublicationGroup;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.source.postgres.PostgresSourceCatalog;
import io.dpone.backfill.source.postgres.PostgresSourceKeyProbe;
import io.dpone.backfill.target.mssql.MssqlIdentifierNames;
import io.dpone.backfill.target.mssql.doctor.MssqlDoctorKeyValues.NotComparable;
import io.dpone.backfill.target.mssql.doctor.MssqlDoctorKeyValues.Outcome;
import io.dpone.backfill.target.mssql.doctor.MssqlDoctorKeyValues.Probed;
import io.dpone.backfill.target.mssql.doctor.MssqlDoctorKeys.Column;
import io.dpone.backfill.target.mssql.doctor.MssqlDoctorKeys.Key;
import io.dpone.backfill.target.mssql.doctor.MssqlDoctorTarget.LiveTarget;

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
    private static final int SHOWN = 5;

    private final Connection target;
    private final List<Finding> findings;
    private final String sourceTable;
    private final String sourceShown;
    private final UnaryOperator<String> sourceColumn;
    private final IdentifierComparison names;
    private final Set<String> groupTables;
    private final PostgresSourceKeyProbe probe;
    private final MssqlDoctorKeyValues values;
    private final MssqlDoctorSql sql;

    private MssqlDoctorForeignKeys(Connection source, Connection target, List<Finding> findings, String sourceSchema,
                                   String sourceName, UnaryOperator<String> sourceColumn, IdentifierComparison names,
                                   Set<String> groupTables) {
        this.target = target;
        this.findings = findings;
        this.sourceTable = PostgresSourceKeyProbe.table(sourceSchema, sourceName);
        this.sourceShown = sourceSchema + "." + sourceName;
        this.sourceColumn = sourceColumn;
        this.names = names;
        this.groupTables = groupTables;
        this.probe = new PostgresSourceKeyProbe(source);
        this.values = new MssqlDoctorKeyValues(target, source, sourceTable);
        this.sql = new MssqlDoctorSql(target);
    }

    /**
     * The check for {@code spec}'s campaign: live-table columns map to source columns as the columns check maps them,
     * and names compare as the target database compares identifiers (a group member spelled {@code Orders} is the
     * table {@code orders} under a {@code _CI} collation).
     */
    static MssqlDoctorForeignKeys of(Connection source, Connection target, BackfillCampaignSpec spec,
                                     List<Finding> findings) throws SQLException {
        IdentifierComparison names = MssqlIdentifierNames.of(target);
        ColumnMapping mapping = spec.columnMapping().under(names);
        String schema = spec.getSource().getSchema();
        String table = spec.getSource().getTable();
        List<String> sourceNames = new PostgresSourceCatalog(source).shape(schema, table).columnNames();
        UnaryOperator<String> sourceColumn = column -> {
            try {
                return mapping.sourceOf(column, sourceNames).orElse(null);
            } catch (IllegalArgumentException e) {
                return null; // the columns check names the ambiguity
            }
        };
        Set<String> group = PublicationGroup.of(spec).map(g -> g.othersThan(spec.getTarget().getTable())).orElse(Set.of());
        return new MssqlDoctorForeignKeys(source, target, findings, schema, table, sourceColumn, names, group);
    }

    void check(LiveTarget live) throws SQLException {
        for (Key key : new MssqlDoctorKeys(target).of(live.objectId())) {
            if (!key.outbound() && key.fromBackup()) {
                continue; // a backup's key is not re-pointed (ADR 0038)
            }
            if (key.disabled() || key.notTrusted()) {
                unchecked(key);
            } else if (key.selfReference()) {
                findings.add(Finding.ok("target.foreign-key.validated-after-load", "foreign key " + key.describe()
                        + " references the live table itself: it is created on the shadow after loading and checked"
                        + " there against the loaded rows before publication, which blocks (ForeignKeyOrphans) with the"
                        + " count and a sample of rows that reference missing keys"));
            } else if (groupMember(key, live)) {
                // Not probed: the other member's source table is named only in its own campaign.
                findings.add(Finding.warning("target.foreign-key.group-member", "foreign key " + key.describe()
                        + " is between members of the campaign's publication group: it cannot be probed before both are"
                        + " loaded; the group's swap re-points it to the members' loaded tables and checks it there,"
                        + " before any of them is published", "If rows break it, the member they belong to blocks"
                        + " (ForeignKeyOrphans, with their count and a sample) and nothing of the group is published."));
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
        if (referencedEmpty && !loadedFrom.contains(null) && probe.anyRowReferencing(sourceTable, loadedFrom)) {
            findings.add(Finding.error("target.foreign-key.referenced-empty", "foreign key " + key.describe()
                    + ": " + referenced + " is empty on the target while source rows reference it, so the key would"
                    + " not hold on the loaded rows and the check before publication would block (ForeignKeyOrphans)",
                    "Load " + referenced + " first (its own campaign, published), then this table."));
            return;
        }
        findings.add(Finding.ok("target.foreign-key.validated-after-load", "foreign key " + key.describe()
                + " is not enforced while chunks load; it is created on the shadow after loading and checked there"
                + " before publication, which blocks (ForeignKeyOrphans) with the count and a sample of rows that"
                + " reference missing keys"));
    }

    private void inbound(Key key) throws SQLException {
        String subject = "foreign key " + key.describe() + " references the live table";
        String referencing = key.schema() + "." + key.table();
        List<String> loadedFrom = key.referencedColumns().stream().map(sourceColumn).toList();
        if (loadedFrom.contains(null)) {
            findings.add(Finding.error("target.foreign-key.referenced-key-missing", subject + ", but no source column"
                    + " loads its column(s) " + String.join(", ", key.referencedColumns()) + ": re-pointed at the"
                    + " published table, every row of " + referencing + " that references it would break it",
                    "Load the referenced columns, or empty " + referencing + " for the campaign."));
            return;
        }
        Outcome outcome = values.probe(key, loadedFrom);
        if (outcome instanceof NotComparable c) {
            findings.add(Finding.warning("target.binding.inbound-foreign-key", subject + ": its column " + c.column()
                    + " is " + c.type() + ", whose values doctor cannot compare exactly with the source's " + c.sourceType()
                    + "; the swap re-points it at the published table and checks it there, not probed here", leftToTheSwap(key)));
        } else if (outcome instanceof Probed p) {
            probed(key, subject, p);
        } else {
            findings.add(Finding.warning("target.binding.inbound-foreign-key", subject + " with more than "
                    + MssqlDoctorKeyValues.PROBED_VALUES + " distinct values: the swap re-points it at the published"
                    + " table and checks it there, not probed here", leftToTheSwap(key)));
        }
    }

    private void probed(Key key, String subject, Probed p) {
        String referencing = key.schema() + "." + key.table();
        if (!p.missing().isEmpty()) {
            findings.add(Finding.error("target.foreign-key.referenced-key-missing", subject + ": "
                    + p.missing().size() + " of its " + p.distinct() + " distinct values are not in the source table "
                    + sourceShown + " (e.g. " + sample(p.missing()) + "), so re-pointed at the published table it would"
                    + " not hold and publication would block",
                    "Delete or fix those rows of " + referencing + ", or load the rows they reference into the source."));
        } else if (!p.unsure().isEmpty()) {
            findings.add(Finding.warning("target.binding.inbound-foreign-key", subject + ": " + p.unsure().size()
                    + " of its " + p.distinct() + " distinct values are not in the source table " + sourceShown
                    + " as written (e.g. " + sample(p.unsure()) + "); SQL Server may still match them under the"
                    + " column's collation (accents, width, kana or the case of letters beyond A-Z), which doctor does"
                    + " not imitate; the swap re-points the key at the published table and checks it there",
                    "Check those values against the source. " + leftToTheSwap(key)));
        } else {
            findings.add(Finding.ok("target.binding.inbound-foreign-key", subject + ": the swap re-points it at the"
                    + " published table and checks it there (a rollback points it back); its " + p.distinct()
                    + " distinct values are all in the source table"));
        }
    }

    private static String leftToTheSwap(Key key) {
        return "Publication blocks (ForeignKeyOrphans) and swaps nothing if rows of " + key.schema() + "." + key.table()
                + " reference keys the source lacks.";
    }

    private static String sample(List<String> values) {
        return String.join(", ", values.subList(0, Math.min(SHOWN, values.size())));
    }
}
