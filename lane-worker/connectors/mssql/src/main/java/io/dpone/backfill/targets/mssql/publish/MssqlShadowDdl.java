package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.targets.mssql.MssqlIdentifiers;
import io.dpone.backfill.targets.mssql.publish.MssqlCarriedObject.Kind;
import io.dpone.backfill.targets.mssql.reconcile.MssqlReconcileRequirements;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The T-SQL that recreates the live table's definition on the shadow: columns in order with their types,
 * collations, identity (same seed and increment), nullability and defaults, computed columns as computed; and,
 * one object at a time, its keys, unique constraints, checks and rowstore indexes under temporary names.
 */
final class MssqlShadowDdl {
    private MssqlShadowDdl() {
    }

    /**
     * {@code CREATE TABLE} of a heap with the live table's columns. Default constraints are named by
     * {@code defaultNameOf} (constraint names are schema-scoped, so the shadow's cannot reuse the live ones).
     */
    static String createTable(String schema, String table, List<MssqlCatalogColumn> columns, UnaryOperator<String> defaultNameOf) {
        return "CREATE TABLE " + MssqlObjectNames.twoPart(schema, table) + " ("
                + columns.stream().map(c -> column(c, defaultNameOf)).collect(Collectors.joining(", ")) + ")";
    }

    /** One column's definition inside CREATE TABLE. */
    static String column(MssqlCatalogColumn c, UnaryOperator<String> defaultNameOf) {
        String name = MssqlIdentifiers.quote(c.name());
        if (c.computed()) {
            // Only a persisted computed column may be declared NOT NULL; a virtual one takes its nullability from the expression.
            return name + " AS " + c.computedDefinition() + (c.persisted() ? " PERSISTED" + (c.nullable() ? "" : " NOT NULL") : "");
        }
        StringBuilder sql = new StringBuilder(name).append(' ').append(c.typeText());
        if (c.identity()) {
            sql.append(" IDENTITY(").append(c.identitySeed()).append(", ").append(c.identityIncrement()).append(')');
        }
        sql.append(c.nullable() ? " NULL" : " NOT NULL");
        // SQL Server creates no default on a timestamp (rowversion) column; a catalog that lists one there lists
        // what the engine stamps anyway (src-docs/babelfish-gaps.md), and copying it would fail the CREATE.
        if (c.defaultDefinition() != null && !MssqlReconcileRequirements.rowVersion(c.typeName())) {
            sql.append(" CONSTRAINT ").append(MssqlIdentifiers.quote(defaultNameOf.apply(c.defaultName())))
                    .append(" DEFAULT ").append(c.defaultDefinition());
        }
        return sql.toString();
    }

    /** Creates {@code object} on {@code schema.table} as {@code name}; null for kinds the shadow does not rebuild. */
    static String create(MssqlCarriedObject object, String schema, String table, String name) {
        String target = MssqlObjectNames.twoPart(schema, table);
        String quoted = MssqlIdentifiers.quote(name);
        return switch (object.kind()) {
            case PRIMARY_KEY, UNIQUE -> "ALTER TABLE " + target + " ADD CONSTRAINT " + quoted + " " + object.definition();
            case CHECK -> "ALTER TABLE " + target + " WITH CHECK ADD CONSTRAINT " + quoted + " " + object.definition();
            case INDEX -> {
                String definition = object.definition();
                int index = definition.indexOf("INDEX ");
                yield "CREATE " + definition.substring(0, index + 6) + quoted + " ON " + target + " "
                        + definition.substring(index + 6);
            }
            case CLUSTERED_COLUMNSTORE -> "CREATE CLUSTERED COLUMNSTORE INDEX " + quoted + " ON " + target;
            case DEFAULT, FOREIGN_KEY, UNSUPPORTED_INDEX -> null;
        };
    }

    /** Whether buildDeferredIndexes builds this kind (defaults come with the table, columnstore before loading). */
    static boolean deferred(Kind kind) {
        return kind == Kind.PRIMARY_KEY || kind == Kind.UNIQUE || kind == Kind.CHECK || kind == Kind.INDEX;
    }
}
