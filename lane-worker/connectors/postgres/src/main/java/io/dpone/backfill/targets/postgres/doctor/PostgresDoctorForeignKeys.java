package io.dpone.backfill.targets.postgres.doctor;

import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.ForeignKeyFindings;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.source.postgres.PostgresSourceKeyProbe;
import io.dpone.backfill.targets.postgres.publish.PostgresForeignKeySql;
import io.dpone.backfill.targets.postgres.publish.PostgresShadowStamp;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * What the live table's foreign keys will do to the campaign, predicted from both catalogs and, where it is cheap,
 * the rows (issue 27). Outbound keys are created on the shadow after loading and validated before publication:
 * a key whose referenced table is empty on the target while source rows reference it would block validation, and
 * is refused here. Inbound keys (other tables referencing the live table) are re-pointed at the published table
 * in the swap and validated there: when a referencing table holds values (or, for a composite key, tuples) the
 * source table lacks, publication would block, and is refused here; when there are too many to probe, the check is
 * left to publication.
 */
final class PostgresDoctorForeignKeys {
    /** Distinct referencing values probed against the source; beyond this, publication checks them. */
    static final int PROBED_VALUES = 100_000;

    private static final String KEYS = "SELECT k.conname, k.conrelid = ?::oid AS outbound, " + PostgresForeignKeySql.REFERENCING
            + ", " + PostgresForeignKeySql.REFERENCED + ", " + PostgresForeignKeySql.columns(false, false) + ", "
            + PostgresForeignKeySql.columns(true, false) + ", pg_catalog.obj_description(t.oid, 'pg_class')"
            + ", CASE WHEN k.conrelid = ?::oid THEN rn.nspname ELSE n.nspname END"
            + ", CASE WHEN k.conrelid = ?::oid THEN r.relname ELSE t.relname END"
            + PostgresForeignKeySql.KEYS + " AND k.conparentid = 0 AND k.conrelid <> k.confrelid"
            + " AND (k.conrelid = ?::oid OR k.confrelid = ?::oid) ORDER BY 2 DESC, 3, 1";

    /** {@code otherSchema}, {@code otherTable}: the table at the key's other end, as named in the catalog. */
    private record Key(String name, boolean outbound, String table, String referenced, String[] columns,
                       String[] referencedColumns, boolean fromBackup, String otherSchema, String otherTable) {
        String describe() {
            return name + " on " + table + " (" + String.join(", ", columns) + ") -> " + referenced + " ("
                    + String.join(", ", referencedColumns) + ")";
        }
    }

    private final PostgresSourceKeyProbe probe;
    private final Connection target;
    private final String sourceTable;
    private final UnaryOperator<String> sourceColumn;
    private final List<Finding> findings;
    private final String schema;
    private final Set<String> groupTables;

    /**
     * @param sourceTable  the campaign's source table, quoted and schema-qualified
     * @param sourceColumn the source column that loads a live-table column (the column mapping), null when none
     * @param schema      the live table's schema
     * @param groupTables the other member tables of the campaign's publication group (issue 27): keys between
     *                    members are re-pointed and validated by the group's swap, against the members' loaded shadows
     */
    PostgresDoctorForeignKeys(Connection source, Connection target, String sourceTable, UnaryOperator<String> sourceColumn,
                              List<Finding> findings, String schema, Set<String> groupTables) {
        this.probe = new PostgresSourceKeyProbe(source);
        this.target = target;
        this.sourceTable = sourceTable;
        this.sourceColumn = sourceColumn;
        this.findings = findings;
        this.schema = schema;
        this.groupTables = groupTables;
    }

    void check(Relation live) throws SQLException {
        for (Key key : keys(live.oid())) {
            if (!key.outbound() && key.fromBackup()) {
                continue; // a backup's key is not re-pointed (ADR 0038)
            }
            if (key.otherSchema().equals(schema) && groupTables.contains(key.otherTable())) {
                // Not probed: the other member's source table is named only in its own campaign.
                findings.add(ForeignKeyFindings.groupMember(key.describe()));
            } else if (key.outbound()) {
                outbound(key);
            } else {
                inbound(key);
            }
        }
    }

    private void outbound(Key key) throws SQLException {
        boolean referencedEmpty = !exists(target, "SELECT 1 FROM " + key.referenced() + " LIMIT 1");
        List<String> loadedFrom = java.util.Arrays.stream(key.columns()).map(sourceColumn).toList();
        if (referencedEmpty && !loadedFrom.contains(null) && probe.anyRowReferencing(sourceTable, loadedFrom)) {
            findings.add(ForeignKeyFindings.referencedEmpty(key.describe(), key.referenced()));
            return;
        }
        findings.add(ForeignKeyFindings.checkedAfterLoad(key.describe()));
    }

    private void inbound(Key key) throws SQLException {
        String subject = "foreign key " + key.describe() + " references the live table";
        List<String> loadedFrom = java.util.Arrays.stream(key.referencedColumns()).map(sourceColumn).toList();
        if (loadedFrom.contains(null)) {
            findings.add(ForeignKeyFindings.referencedColumnsNotLoaded(subject, java.util.Arrays.asList(key.referencedColumns()), key.table()));
            return;
        }
        // MATCH SIMPLE (the default): a referencing row with a NULL in its key is not checked.
        List<String> columns = java.util.Arrays.stream(key.columns()).map(PostgresIdentifiers::quote).toList();
        List<String[]> values = new PostgresJdbc(target).list("SELECT DISTINCT " + String.join(", ",
                        columns.stream().map(c -> c + "::text").toList()) + " FROM " + key.table() + " WHERE "
                        + String.join(" AND ", columns.stream().map(c -> c + " IS NOT NULL").toList())
                        + " LIMIT " + (PROBED_VALUES + 1),
                rs -> {
                    String[] tuple = new String[columns.size()];
                    for (int i = 0; i < tuple.length; i++) {
                        tuple[i] = rs.getString(i + 1);
                    }
                    return tuple;
                });
        if (values.size() > PROBED_VALUES) {
            findings.add(ForeignKeyFindings.tooManyToProbe(subject, PROBED_VALUES, key.table()));
            return;
        }
        List<String> missing = probe.missing(sourceTable, loadedFrom, values).stream()
                .map(PostgresSourceKeyProbe::shown).toList();
        if (!missing.isEmpty()) {
            findings.add(ForeignKeyFindings.valuesMissingInSource(subject, missing, values.size(), sourceTable, key.table()));
            return;
        }
        findings.add(ForeignKeyFindings.allValuesInSource(subject, values.size()));
    }

    private List<Key> keys(long oid) throws SQLException {
        return new PostgresJdbc(target).list(KEYS, rs -> new Key(rs.getString(1), rs.getBoolean(2), rs.getString(3),
                rs.getString(4), (String[]) rs.getArray(5).getArray(), (String[]) rs.getArray(6).getArray(),
                PostgresShadowStamp.isBackup(rs.getString(7)), rs.getString(8), rs.getString(9)), oid, oid, oid, oid, oid);
    }

    private static boolean exists(Connection c, String sql) throws SQLException {
        return new PostgresJdbc(c).one(sql, rs -> true).isPresent();
    }
}
