package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.targets.mssql.MssqlIdentifiers;
import io.dpone.backfill.targets.mssql.publish.MssqlCarriedObject.Kind;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table's indexes and constraints from {@code sys.indexes}, {@code sys.index_columns}, {@code sys.key_constraints}
 * (through the index flags), {@code sys.check_constraints}, {@code sys.default_constraints} and
 * {@code sys.foreign_keys}, each with the definition that recreates it, index options included. Sorted clustered
 * first, then by name, so a rebuild creates the clustered index before the nonclustered ones (which would otherwise be
 * rebuilt with it).
 */
final class MssqlCatalogObjects {
    private static final String INDEXES = """
            SELECT i.index_id, i.name, i.type, i.is_unique, i.is_primary_key, i.is_unique_constraint,
                   i.has_filter, i.filter_definition, i.fill_factor, i.is_padded, i.ignore_dup_key,
                   i.allow_row_locks, i.allow_page_locks
              FROM sys.indexes AS i
             WHERE i.object_id = OBJECT_ID(?, N'U') AND i.index_id > 0
             ORDER BY i.index_id""";
    private static final String INDEX_COLUMNS = """
            SELECT ic.index_id, c.name, ic.is_descending_key, ic.is_included_column
              FROM sys.index_columns AS ic
              JOIN sys.columns AS c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
             WHERE ic.object_id = OBJECT_ID(?, N'U')
             ORDER BY ic.index_id, ic.is_included_column, ic.key_ordinal, ic.index_column_id""";
    private static final String CHECKS = """
            SELECT name, definition FROM sys.check_constraints WHERE parent_object_id = OBJECT_ID(?, N'U')""";
    private static final String DEFAULTS = """
            SELECT dc.name, dc.definition, c.name AS column_name
              FROM sys.default_constraints AS dc
              JOIN sys.columns AS c ON c.object_id = dc.parent_object_id AND c.column_id = dc.parent_column_id
             WHERE dc.parent_object_id = OBJECT_ID(?, N'U')""";
    private static final String FOREIGN_KEYS = """
            SELECT fk.object_id, fk.name, OBJECT_SCHEMA_NAME(fk.referenced_object_id) AS ref_schema,
                   OBJECT_NAME(fk.referenced_object_id) AS ref_table, fk.delete_referential_action_desc,
                   fk.update_referential_action_desc, pc.name AS parent_column, rc.name AS ref_column
              FROM sys.foreign_keys AS fk
              JOIN sys.foreign_key_columns AS fkc ON fkc.constraint_object_id = fk.object_id
              JOIN sys.columns AS pc ON pc.object_id = fkc.parent_object_id AND pc.column_id = fkc.parent_column_id
              JOIN sys.columns AS rc ON rc.object_id = fkc.referenced_object_id AND rc.column_id = fkc.referenced_column_id
             WHERE fk.parent_object_id = OBJECT_ID(?, N'U')
             ORDER BY fk.object_id, fkc.constraint_column_id""";

    private final Connection connection;

    MssqlCatalogObjects(Connection connection) {
        this.connection = connection;
    }

    List<MssqlCarriedObject> of(String schema, String table) throws SQLException {
        String name = MssqlObjectNames.twoPart(schema, table);
        List<MssqlCarriedObject> objects = new ArrayList<>(indexes(name));
        for (String[] row : rows(CHECKS, name, 2)) {
            objects.add(new MssqlCarriedObject(Kind.CHECK, row[0], "CHECK " + row[1], null, false));
        }
        for (String[] row : rows(DEFAULTS, name, 3)) {
            objects.add(new MssqlCarriedObject(Kind.DEFAULT, row[0], "DEFAULT " + row[1] + " FOR "
                    + MssqlIdentifiers.quote(row[2]), row[2], false));
        }
        objects.addAll(foreignKeys(name));
        objects.sort(Comparator.comparing((MssqlCarriedObject o) -> !o.clustered()).thenComparing(MssqlCarriedObject::name));
        return objects;
    }

    private List<MssqlCarriedObject> indexes(String table) throws SQLException {
        Map<Integer, List<String>> keys = new LinkedHashMap<>();
        Map<Integer, List<String>> included = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(INDEX_COLUMNS)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int id = rs.getInt("index_id");
                    String column = MssqlIdentifiers.quote(rs.getString("name"));
                    if (rs.getBoolean("is_included_column")) {
                        included.computeIfAbsent(id, k -> new ArrayList<>()).add(column);
                    } else {
                        keys.computeIfAbsent(id, k -> new ArrayList<>())
                                .add(column + (rs.getBoolean("is_descending_key") ? " DESC" : " ASC"));
                    }
                }
            }
        }
        List<MssqlCarriedObject> indexes = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(INDEXES)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int id = rs.getInt("index_id");
                    int type = rs.getInt("type");
                    String name = rs.getString("name");
                    boolean clustered = type == 1 || type == 5;
                    String columns = "(" + String.join(", ", keys.getOrDefault(id, List.of())) + ")";
                    String with = options(rs.getInt("fill_factor"), rs.getBoolean("is_padded"),
                            rs.getBoolean("ignore_dup_key"), rs.getBoolean("allow_row_locks"), rs.getBoolean("allow_page_locks"));
                    String kindWord = clustered ? "CLUSTERED" : "NONCLUSTERED";
                    if (type == 5) {
                        indexes.add(new MssqlCarriedObject(Kind.CLUSTERED_COLUMNSTORE, name, "CLUSTERED COLUMNSTORE", null, true));
                    } else if (type != 1 && type != 2) {
                        // XML, spatial, nonclustered columnstore, hash: recorded so drift shows, never rebuilt here.
                        indexes.add(new MssqlCarriedObject(Kind.UNSUPPORTED_INDEX, name, "INDEX of type " + type, null, false));
                    } else if (rs.getBoolean("is_primary_key")) {
                        indexes.add(new MssqlCarriedObject(Kind.PRIMARY_KEY, name, "PRIMARY KEY " + kindWord + " " + columns + with, null, clustered));
                    } else if (rs.getBoolean("is_unique_constraint")) {
                        indexes.add(new MssqlCarriedObject(Kind.UNIQUE, name, "UNIQUE " + kindWord + " " + columns + with, null, clustered));
                    } else {
                        String include = included.containsKey(id) ? " INCLUDE (" + String.join(", ", included.get(id)) + ")" : "";
                        String filter = rs.getBoolean("has_filter") ? " WHERE " + rs.getString("filter_definition") : "";
                        indexes.add(new MssqlCarriedObject(Kind.INDEX, name, (rs.getBoolean("is_unique") ? "UNIQUE " : "")
                                + kindWord + " INDEX " + columns + include + filter + with, null, clustered));
                    }
                }
            }
        }
        return indexes;
    }

    /**
     * The index options the live index was created with, as the WITH clause that recreates them (CREATE INDEX and the
     * PRIMARY KEY / UNIQUE constraint's index options: sql-docs docs/t-sql/statements/create-index-transact-sql.md,
     * alter-table-index-option-transact-sql.md); empty when every one is the default, so a table without options keeps
     * the definitions (and shape digests) it had. Values from sys.indexes: fill_factor 0 and 100 both mean full pages.
     * Data compression is not carried: doctor refuses it (target.table.compression).
     */
    static String options(int fillFactor, boolean padded, boolean ignoreDupKey, boolean allowRowLocks, boolean allowPageLocks) {
        List<String> options = new ArrayList<>();
        if (padded) {
            options.add("PAD_INDEX = ON");
        }
        if (fillFactor != 0 && fillFactor != 100) {
            options.add("FILLFACTOR = " + fillFactor);
        }
        if (ignoreDupKey) {
            options.add("IGNORE_DUP_KEY = ON");
        }
        if (!allowRowLocks) {
            options.add("ALLOW_ROW_LOCKS = OFF");
        }
        if (!allowPageLocks) {
            options.add("ALLOW_PAGE_LOCKS = OFF");
        }
        return options.isEmpty() ? "" : " WITH (" + String.join(", ", options) + ")";
    }

    private List<MssqlCarriedObject> foreignKeys(String table) throws SQLException {
        record Fk(String name, String refTable, String onDelete, String onUpdate, List<String> cols, List<String> refs) {
        }
        Map<Long, Fk> keys = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(FOREIGN_KEYS)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String name = rs.getString("name");
                    String refTable = MssqlObjectNames.twoPart(rs.getString("ref_schema"), rs.getString("ref_table"));
                    String onDelete = rs.getString("delete_referential_action_desc");
                    String onUpdate = rs.getString("update_referential_action_desc");
                    Fk fk = keys.computeIfAbsent(rs.getLong("object_id"),
                            k -> new Fk(name, refTable, onDelete, onUpdate, new ArrayList<>(), new ArrayList<>()));
                    fk.cols().add(MssqlIdentifiers.quote(rs.getString("parent_column")));
                    fk.refs().add(MssqlIdentifiers.quote(rs.getString("ref_column")));
                }
            }
        }
        return keys.values().stream().map(fk -> new MssqlCarriedObject(Kind.FOREIGN_KEY, fk.name(), "FOREIGN KEY ("
                + String.join(", ", fk.cols()) + ") REFERENCES " + fk.refTable() + " (" + String.join(", ", fk.refs())
                + ") ON DELETE " + fk.onDelete().replace('_', ' ') + " ON UPDATE " + fk.onUpdate().replace('_', ' '),
                null, false)).toList();
    }

    private List<String[]> rows(String sql, String table, int columns) throws SQLException {
        List<String[]> rows = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String[] row = new String[columns];
                    for (int i = 0; i < columns; i++) {
                        row[i] = rs.getString(i + 1);
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }
}
