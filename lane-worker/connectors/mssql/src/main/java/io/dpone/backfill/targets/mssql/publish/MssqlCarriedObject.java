package io.dpone.backfill.targets.mssql.publish;

/**
 * An index or constraint of a table that must follow it through the swap: its kind, name, the definition the live
 * shape records (everything but the name and the table), and the DDL body that recreates it on another table.
 * {@code column} is the column a DEFAULT belongs to (null otherwise): a table has at most one default per column,
 * so defaults pair by column, everything else by name.
 */
record MssqlCarriedObject(Kind kind, String name, String definition, String column, boolean clustered) {
    enum Kind {
        PRIMARY_KEY, UNIQUE, CHECK, DEFAULT, FOREIGN_KEY, INDEX, CLUSTERED_COLUMNSTORE, UNSUPPORTED_INDEX;

        /** Constraint names are schema-scoped and renamed as OBJECT; index names belong to their table. */
        boolean isConstraint() {
            return this == PRIMARY_KEY || this == UNIQUE || this == CHECK || this == DEFAULT || this == FOREIGN_KEY;
        }
    }

    /** {@code name: definition}, the form {@link io.dpone.backfill.core.publish.TableShape#constraints()} holds. */
    String described() {
        return name + ": " + definition;
    }
}
