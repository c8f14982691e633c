package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.targets.postgres.publish.PostgresCatalogObjects.CarriedObject;
import io.dpone.backfill.targets.postgres.publish.PostgresCatalogObjects.Kind;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Table renames and the index and constraint names that must follow them. Index names share the schema's
 * namespace, so the outgoing table's objects are first renamed away, then the incoming table's counterparts take
 * the original names. The pairing is read from the catalog before any rename.
 */
public final class PostgresSwapRenamer {
    /** An object of the outgoing table and the name of its counterpart on the incoming table (null: none). */
    public record Carry(CarriedObject outgoing, String incomingName) {
    }

    private final Connection connection;

    PostgresSwapRenamer(Connection connection) {
        this.connection = connection;
    }

    /** Pairs each object of the outgoing table with the incoming table's object named {@code incomingNameOf(name)}. */
    List<Carry> plan(long outgoingOid, long incomingOid, UnaryOperator<String> incomingNameOf) throws SQLException {
        PostgresCatalogObjects objects = new PostgresCatalogObjects(connection);
        List<CarriedObject> incoming = objects.of(incomingOid);
        List<Carry> carries = new ArrayList<>();
        for (CarriedObject object : objects.of(outgoingOid)) {
            String candidate = incomingNameOf.apply(object.name());
            boolean present = incoming.stream().anyMatch(i -> i.name().equals(candidate) && i.kind() == object.kind());
            carries.add(new Carry(object, present ? candidate : null));
        }
        return carries;
    }

    static List<String> unmatched(List<Carry> carries) {
        return carries.stream().filter(c -> c.incomingName() == null).map(c -> c.outgoing().name()).toList();
    }

    void renameTable(String schema, String from, String to) throws SQLException {
        PostgresShadowSql.execute(connection, "ALTER TABLE " + PostgresIdentifiers.qualified(schema, from)
                + " RENAME TO " + PostgresIdentifiers.quote(to));
    }

    /**
     * Renames every outgoing object to {@code awayNameOf(name)} on {@code outgoingTable}, then every matched
     * incoming object to the original name on {@code incomingTable} (both by their current table names).
     */
    void carry(String schema, String outgoingTable, String incomingTable, List<Carry> carries,
               UnaryOperator<String> awayNameOf) throws SQLException {
        for (Carry c : carries) {
            rename(schema, outgoingTable, c.outgoing().kind(), c.outgoing().name(), awayNameOf.apply(c.outgoing().name()));
        }
        for (Carry c : carries) {
            if (c.incomingName() != null) {
                rename(schema, incomingTable, c.outgoing().kind(), c.incomingName(), c.outgoing().name());
            }
        }
    }

    private void rename(String schema, String table, Kind kind, String from, String to) throws SQLException {
        // Renaming a key or unique constraint renames its index with it.
        String sql = kind == Kind.INDEX
                ? "ALTER INDEX " + PostgresIdentifiers.qualified(schema, from) + " RENAME TO " + PostgresIdentifiers.quote(to)
                : "ALTER TABLE " + PostgresIdentifiers.qualified(schema, table) + " RENAME CONSTRAINT "
                  + PostgresIdentifiers.quote(from) + " TO " + PostgresIdentifiers.quote(to);
        PostgresShadowSql.execute(connection, sql);
    }
}
