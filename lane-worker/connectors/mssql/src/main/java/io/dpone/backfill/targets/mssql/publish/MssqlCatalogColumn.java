package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.publish.ColumnShape;

/**
 * One column as {@code sys.columns}, {@code sys.identity_columns}, {@code sys.default_constraints} and
 * {@code sys.computed_columns} describe it. {@code typeName} is the system type (an alias type is read as its base
 * type); {@code maxLength} is in bytes, -1 for (max). Identity seed and increment are kept as the catalog prints
 * them (they may be decimal). {@code defaultName} is the default constraint's name: constraint names are
 * schema-scoped, so the shadow's copy needs another one.
 */
record MssqlCatalogColumn(int columnId, String name, String typeName, int maxLength, int precision, int scale,
                   boolean nullable, String collation, boolean identity, String identitySeed, String identityIncrement,
                   String defaultName, String defaultDefinition, String computedDefinition, boolean persisted) {

    boolean computed() {
        return computedDefinition != null;
    }

    /** The type as T-SQL writes it, with its collation when it has one (a collation change is a shape change). */
    String typeText() {
        String type = MssqlTypes.render(typeName, maxLength, precision, scale);
        return collation == null ? type : type + " COLLATE " + collation;
    }

    /** The shape the engine compares: computed columns carry their definition where others carry the default. */
    ColumnShape shape() {
        if (computed()) {
            return new ColumnShape(name, typeText() + (persisted ? " PERSISTED" : ""), nullable, computedDefinition,
                    true, false);
        }
        return new ColumnShape(name, typeText(), nullable, defaultDefinition, false, identity);
    }
}
