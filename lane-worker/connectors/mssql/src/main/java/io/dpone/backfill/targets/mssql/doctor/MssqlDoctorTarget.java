package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.PublicationMode;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The reviewed live table: it exists, is a user table, has the unique key columns, and has none of the shapes the
 * adapter cannot copy into a shadow faithfully (system-versioned temporal, memory-optimized, ledger, graph,
 * external, FileTable, sparse column set); partitioning, masks, encryption and compression are
 * {@link MssqlDoctorFeatures}'. A feature column sys.tables lacks on this server version (COL_LENGTH is NULL) means
 * the server has no such tables.
 */
final class MssqlDoctorTarget {
    /** The live table as the other target checks need it. */
    record LiveTarget(int objectId, String schema, String table, List<TargetColumn> columns) {
        String qualified() {
            return MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table);
        }

        String shown() {
            return schema + "." + table;
        }

        Optional<TargetColumn> column(String name) {
            return columns.stream().filter(c -> c.name().equals(name)).findFirst();
        }
    }

    /**
     * One live column with how the target fills it when a load leaves it out. {@code typeName} is the declared
     * type (an alias type's own name); {@code systemType} is false for CLR types (geography, geometry, hierarchyid),
     * which have no system type the type map could describe.
     */
    record TargetColumn(String name, String typeName, boolean nullable, boolean identity, boolean computed,
                        boolean hasDefault, String collation, boolean systemType) {
    }

    /** A sys.tables flag that marks a shape the shadow cannot reproduce, and the feature it names. */
    private record Shape(String column, String refusedWhen, String code, String feature, String action) {
    }

    private static final List<Shape> SHAPES = List.of(
            new Shape("temporal_type", "<> 0", "target.table.temporal", "a system-versioned temporal table (or the"
                    + " history table of one)", "Load a plain table: turn SYSTEM_VERSIONING OFF for the campaign and"
                    + " back on after publication, or point spec.target.table at a non-temporal table."),
            new Shape("is_memory_optimized", "= 1", "target.table.memory-optimized", "a memory-optimized table",
                    "Point spec.target.table at a disk-based table; the shadow cannot be created memory-optimized."),
            new Shape("ledger_type", "<> 0", "target.table.ledger", "a ledger table (its history cannot be"
                    + " carried to a shadow)", "Point spec.target.table at a non-ledger table; ledger tables cannot be"
                    + " renamed away or replaced."),
            new Shape("is_node", "= 1", "target.table.graph", "a graph node table", "Point spec.target.table at a"
                    + " plain table; graph node and edge tables cannot be rebuilt as a shadow."),
            new Shape("is_edge", "= 1", "target.table.graph", "a graph edge table", "Point spec.target.table at a"
                    + " plain table; graph node and edge tables cannot be rebuilt as a shadow."),
            new Shape("is_external", "= 1", "target.table.external", "an external table (its rows live outside"
                    + " the database)", "Point spec.target.table at a table stored in the database."),
            new Shape("is_filetable", "= 1", "target.table.filetable", "a FileTable", "Point spec.target.table at"
                    + " a plain table; a FileTable's rows are files managed by FILESTREAM."));

    private final Connection target;
    private final BackfillCampaignSpec spec;
    private final List<Finding> findings;
    private final MssqlDoctorSql sql;

    MssqlDoctorTarget(Connection target, BackfillCampaignSpec spec, List<Finding> findings) {
        this.target = target;
        this.spec = spec;
        this.findings = findings;
        this.sql = new MssqlDoctorSql(target);
    }

    /** The live table, or empty when it is missing or not a user table (both reported). */
    Optional<LiveTarget> check() throws SQLException {
        String schema = spec.getTarget().getSchema();
        String table = spec.getTarget().getTable();
        String shown = schema + "." + table;
        String qualified = MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table);
        List<String> object = sql.strings("SELECT CONVERT(nvarchar(20), o.object_id) + N' ' + RTRIM(o.type) + N' '"
                + " + o.type_desc FROM sys.objects o WHERE o.object_id = OBJECT_ID(?)", qualified);
        if (object.isEmpty()) {
            findings.add(Finding.error("target.table.missing", "target table " + shown + " does not exist (or the"
                    + " login cannot see it)", "Provision and review the target table first (its catalog shape is"
                    + " the authority for the shadow), grant the login access to it, or fix spec.target.schema and"
                    + " spec.target.table."));
            return Optional.empty();
        }
        String[] parts = object.get(0).split(" ", 3);
        if (!parts[1].equals("U")) {
            findings.add(Finding.error("target.table.not-a-table", "target " + shown + " is not a user table ("
                    + parts[2] + "): views, synonyms and other objects cannot be published by a swap",
                    "Point spec.target.table at a user table."));
            return Optional.empty();
        }
        int objectId = Integer.parseInt(parts[0]);
        boolean refused = shapes(objectId, shown);
        refused |= columnSet(objectId, shown);
        LiveTarget live = new LiveTarget(objectId, schema, table, columns(objectId));
        // The key names source columns: each must load a target column (issue 27).
        List<String> targetNames = live.columns().stream().map(TargetColumn::name).toList();
        io.dpone.backfill.core.campaign.ColumnMapping mapping = spec.columnMapping()
                .under(io.dpone.backfill.targets.mssql.MssqlIdentifierNames.of(target));
        List<String> missing = spec.getUniqueKey().stream().filter(k -> {
            try {
                return mapping.targetOf(k, targetNames).isEmpty();
            } catch (IllegalArgumentException e) {
                return false; // the columns check names the ambiguity
            }
        }).toList();
        if (!missing.isEmpty()) {
            findings.add(Finding.error("target.unique-key.missing", "unique key column(s) " + missing
                    + " do not exist in target table " + shown,
                    "Add the columns to the reviewed target table, or fix spec.uniqueKey."));
        } else if (!refused) {
            findings.add(Finding.ok("target.table.ok", "target table " + shown + " is a user table with the"
                    + " unique key columns " + spec.getUniqueKey()));
        }
        if (spec.getPublication().getMode() == PublicationMode.SHADOW_SWAP) {
            occupancy(live);
        }
        return Optional.of(live);
    }

    /**
     * A shadow swap replaces the live table: rows it holds stay only in the backup. Read only when the user may
     * (the privilege check reports a missing SELECT).
     */
    private void occupancy(LiveTarget live) throws SQLException {
        if (!Integer.valueOf(1).equals(sql.integer("SELECT HAS_PERMS_BY_NAME(?, N'OBJECT', N'SELECT')", live.qualified()))) {
            return;
        }
        if (Integer.valueOf(1).equals(sql.integer("SELECT CASE WHEN EXISTS (SELECT 1 FROM " + live.qualified()
                + ") THEN 1 ELSE 0 END"))) {
            findings.add(Finding.warning("target.table.not-empty", "live target " + live.shown() + " holds rows:"
                    + " the shadow swap replaces them (they stay in the backup), and any write to it after preparation"
                    + " blocks publication", "Confirm that the published table should not contain today's rows, and"
                    + " stop writers of " + live.shown() + " for the campaign."));
        }
    }

    /** Reports each refused shape; true when any was found. */
    private boolean shapes(int objectId, String shown) throws SQLException {
        List<Shape> present = new ArrayList<>();
        for (Shape shape : SHAPES) {
            if (sql.integer("SELECT COL_LENGTH(N'sys.tables', ?)", shape.column()) != null) {
                present.add(shape);
            }
        }
        if (present.isEmpty()) {
            return false;
        }
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < present.size(); i++) {
            Shape shape = present.get(i);
            select.append(i == 0 ? "" : ", ").append("CASE WHEN t.").append(shape.column()).append(' ')
                    .append(shape.refusedWhen()).append(" THEN 1 ELSE 0 END");
        }
        select.append(" FROM sys.tables t WHERE t.object_id = ?");
        List<Integer> flags = sql.integers(select.toString(), objectId);
        boolean refused = false;
        for (int i = 0; i < present.size() && i < flags.size(); i++) {
            if (Integer.valueOf(1).equals(flags.get(i))) {
                Shape shape = present.get(i);
                refused = true;
                findings.add(Finding.error(shape.code(), "target " + shown + " is " + shape.feature()
                        + " (sys.tables." + shape.column() + "): the adapter cannot copy that shape into a shadow"
                        + " faithfully", shape.action()));
            }
        }
        return refused;
    }

    private boolean columnSet(int objectId, String shown) throws SQLException {
        List<String> sets = sql.strings("SELECT c.name FROM sys.columns c WHERE c.object_id = ? AND c.is_column_set = 1",
                objectId);
        if (sets.isEmpty()) {
            return false;
        }
        findings.add(Finding.error("target.table.sparse-column-set", "target " + shown + " has the sparse column"
                + " set " + sets + ": the bulk load and the shadow's validation cannot treat it as a column",
                "Point spec.target.table at a table without a column set (sparse columns alone are fine)."));
        return true;
    }

    private List<TargetColumn> columns(int objectId) throws SQLException {
        List<TargetColumn> columns = new ArrayList<>();
        try (PreparedStatement ps = target.prepareStatement("""
                SELECT c.name, TYPE_NAME(c.user_type_id), c.is_nullable, c.is_identity, c.is_computed,
                       CASE WHEN c.default_object_id <> 0 THEN 1 ELSE 0 END, c.collation_name,
                       CASE WHEN EXISTS (SELECT 1 FROM sys.types t WHERE t.user_type_id = c.system_type_id
                                            AND t.user_type_id = t.system_type_id) THEN 1 ELSE 0 END
                  FROM sys.columns c
                 WHERE c.object_id = ?
                 ORDER BY c.column_id""")) {
            ps.setInt(1, objectId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(new TargetColumn(rs.getString(1), rs.getString(2), rs.getBoolean(3), rs.getBoolean(4),
                            rs.getBoolean(5), rs.getBoolean(6), rs.getString(7), rs.getBoolean(8)));
                }
            }
        }
        return columns;
    }
}
