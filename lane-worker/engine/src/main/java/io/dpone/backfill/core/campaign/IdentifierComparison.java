package io.dpone.backfill.core.campaign;

import java.util.Locale;

/**
 * How a database compares two identifiers, so that names are matched the way the target itself resolves them
 * (issue 36). PostgreSQL compares quoted identifiers exactly. SQL Server compares them under the database's
 * collation, case-insensitively under the default ones (sql-docs docs/relational-databases/collations/
 * collation-and-unicode-support.md: a {@code _CI} collation is case-insensitive, {@code _CS} case-sensitive):
 * there {@code InvoiceLine}, {@code invoiceline} and {@code INVOICELINE} name one table.
 */
public enum IdentifierComparison {
    EXACT,
    /** Case folded as Unicode lower case: what a {@code _CI} collation treats as one name; accents still differ. */
    CASE_INSENSITIVE;

    public boolean same(String a, String b) {
        return this == EXACT ? a.equals(b) : key(a).equals(key(b));
    }

    /** The form two names share exactly when {@link #same} says they are one name. */
    public String key(String name) {
        return this == EXACT ? name : name.toLowerCase(Locale.ROOT);
    }

    /**
     * From a SQL Server collation name ({@code DATABASEPROPERTYEX(DB_NAME(), 'Collation')}): case-sensitive when it
     * carries {@code _CS} or is binary ({@code _BIN}, {@code _BIN2}), else case-insensitive.
     */
    public static IdentifierComparison ofCollation(String collation) {
        String upper = collation == null ? "" : collation.toUpperCase(Locale.ROOT);
        return upper.contains("_CS") || upper.contains("_BIN") ? EXACT : CASE_INSENSITIVE;
    }
}
