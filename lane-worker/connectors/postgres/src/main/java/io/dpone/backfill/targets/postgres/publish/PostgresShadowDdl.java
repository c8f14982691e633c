package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.targets.postgres.publish.PostgresCatalogObjects.CarriedObject;


/**
 * Renders the statement that recreates one of the live table's indexes or constraints on the shadow under a new
 * name. The catalog's definition is reused only after its head (the part naming the index and the table) has been
 * verified to be exactly what the catalog prints for the live table; the head is then rebuilt from quoted parts.
 * Nothing is found-and-replaced, so a column or expression that happens to contain the table's name is left alone.
 */
public final class PostgresShadowDdl {
    private static final String NOT_VALID = " NOT VALID";

    private PostgresShadowDdl() {
    }

    /**
     * The creating statement. A validated foreign key is added NOT VALID (a quick catalog change) and validated by
     * {@code PostgresForeignKeyOrphans.validate} in its own transaction, which holds a weaker lock on the referenced table.
     */
    static String create(CarriedObject object, String schema, String shadowTable, String newName) {
        String shadow = PostgresIdentifiers.qualified(schema, shadowTable);
        if (object.kind() == PostgresCatalogObjects.Kind.INDEX) {
            String tail = after(object.definitionHead(), object);
            return "CREATE " + (object.unique() ? "UNIQUE " : "") + "INDEX " + PostgresIdentifiers.quote(newName)
                    + " ON " + shadow + " USING " + tail;
        }
        String definition = object.definition();
        if (object.selfReferencing()) {
            // A self-reference must point at the shadow itself, so that after the swap it points at the live table.
            definition = "FOREIGN KEY (" + object.columnList() + ") REFERENCES " + shadow + "("
                    + after(object.definitionHead(), object);
        }
        if (object.isForeignKey() && object.validated()) {
            definition = definition + NOT_VALID;
        }
        return "ALTER TABLE " + shadow + " ADD CONSTRAINT " + PostgresIdentifiers.quote(newName) + " " + definition;
    }

    /** Whether the created object still needs {@code PostgresForeignKeyOrphans.validate}: a foreign key the live table has validated. */
    static boolean needsValidation(CarriedObject object) {
        return object.isForeignKey() && object.validated();
    }

    static String comment(CarriedObject object, String schema, String shadowTable, String name) {
        return object.kind() == PostgresCatalogObjects.Kind.INDEX
                ? "INDEX " + PostgresIdentifiers.qualified(schema, name)
                : "CONSTRAINT " + PostgresIdentifiers.quote(name) + " ON " + PostgresIdentifiers.qualified(schema, shadowTable);
    }

    private static String after(String head, CarriedObject object) {
        if (head == null || !object.definition().startsWith(head)) {
            throw new IllegalStateException("cannot recreate " + object.name() + " on the shadow safely: its catalog"
                    + " definition does not start as expected (" + object.definition() + ")");
        }
        return object.definition().substring(head.length());
    }
}
