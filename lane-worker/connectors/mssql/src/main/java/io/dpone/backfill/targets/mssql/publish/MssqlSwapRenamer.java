package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.targets.mssql.publish.MssqlCarriedObject.Kind;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Table renames and the index and constraint names that must follow them, all with {@code sp_rename} and an
 * explicit {@code @objtype}: 'OBJECT' for tables and constraints (a key or unique constraint renames its index
 * with it), 'INDEX' for an index, named schema.table.index. Constraint names are schema-scoped, so the outgoing
 * table's objects are renamed away first, then the incoming table's counterparts take the original names: no two
 * objects ever share a name. The pairing is read from the catalog before any rename.
 */
final class MssqlSwapRenamer {
    /** An object of the outgoing table and the current name of its counterpart on the incoming table (null: none). */
    record Carry(MssqlCarriedObject outgoing, String incomingName) {
    }

    private static final String RENAME = "EXEC sys.sp_rename @objname = ?, @newname = ?, @objtype = ?";

    private final Connection connection;

    MssqlSwapRenamer(Connection connection) {
        this.connection = connection;
    }

    /**
     * Pairs each object of the outgoing table with the incoming table's object named {@code incomingNameOf(name)};
     * a default pairs with the incoming table's default on the same column, whatever its name.
     */
    List<Carry> plan(String schema, String outgoingTable, String incomingTable, UnaryOperator<String> incomingNameOf)
            throws SQLException {
        MssqlCatalogObjects objects = new MssqlCatalogObjects(connection);
        List<MssqlCarriedObject> incoming = objects.of(schema, incomingTable);
        List<Carry> carries = new ArrayList<>();
        for (MssqlCarriedObject object : objects.of(schema, outgoingTable)) {
            String match = incoming.stream().filter(i -> i.kind() == object.kind())
                    .filter(i -> object.kind() == Kind.DEFAULT ? Objects.equals(i.column(), object.column())
                            : i.name().equals(incomingNameOf.apply(object.name())))
                    .map(MssqlCarriedObject::name).findFirst().orElse(null);
            carries.add(new Carry(object, match));
        }
        return carries;
    }

    static List<String> unmatched(List<Carry> carries) {
        return carries.stream().filter(c -> c.incomingName() == null).map(c -> c.outgoing().name()).toList();
    }

    void renameTable(String schema, String from, String to) throws SQLException {
        rename(MssqlObjectNames.twoPart(schema, from), to, "OBJECT");
    }

    /**
     * Renames every outgoing object to {@code awayNameOf(name)} on {@code outgoingTable}, then every matched
     * incoming object to the original name on {@code incomingTable} (both by their current table names).
     */
    void carry(String schema, String outgoingTable, String incomingTable, List<Carry> carries,
               UnaryOperator<String> awayNameOf) throws SQLException {
        for (Carry c : carries) {
            renameObject(schema, outgoingTable, c.outgoing().kind(), c.outgoing().name(), awayNameOf.apply(c.outgoing().name()));
        }
        for (Carry c : carries) {
            if (c.incomingName() != null && !c.incomingName().equals(c.outgoing().name())) {
                renameObject(schema, incomingTable, c.outgoing().kind(), c.incomingName(), c.outgoing().name());
            }
        }
    }

    private void renameObject(String schema, String table, Kind kind, String from, String to) throws SQLException {
        if (kind.isConstraint()) {
            rename(MssqlObjectNames.twoPart(schema, from), to, "OBJECT");
        } else {
            rename(MssqlObjectNames.threePart(schema, table, from), to, "INDEX");
        }
    }

    private void rename(String objectName, String newName, String type) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(RENAME)) {
            ps.setString(1, objectName);
            ps.setString(2, newName);
            ps.setString(3, type);
            ps.execute();
        }
    }
}
