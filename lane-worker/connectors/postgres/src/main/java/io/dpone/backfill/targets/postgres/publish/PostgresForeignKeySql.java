package io.dpone.backfill.targets.postgres.publish;

/**
 * The catalog SQL every reader of foreign keys shares (the swap's re-pointing, the orphan count, doctor): a key
 * {@code k} with its referencing table {@code t} in {@code n} and its referenced table {@code r} in {@code rn}.
 */
public final class PostgresForeignKeySql {
    /** {@code FROM ... WHERE k.contype = 'f'}: add further conditions with AND. */
    public static final String KEYS = """
              FROM pg_catalog.pg_constraint k
              JOIN pg_catalog.pg_class t ON t.oid = k.conrelid
              JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
              JOIN pg_catalog.pg_class r ON r.oid = k.confrelid
              JOIN pg_catalog.pg_namespace rn ON rn.oid = r.relnamespace
             WHERE k.contype = 'f'""";
    /** The referencing table, quoted and schema-qualified. */
    public static final String REFERENCING = "pg_catalog.quote_ident(n.nspname) || '.' || pg_catalog.quote_ident(t.relname)";
    /** The referenced table, quoted and schema-qualified. */
    public static final String REFERENCED = "pg_catalog.quote_ident(rn.nspname) || '.' || pg_catalog.quote_ident(r.relname)";

    private PostgresForeignKeySql() {
    }

    /** The key's columns on one side, in key order, as an array of names ({@code quoted}: as identifiers). */
    public static String columns(boolean referencedSide, boolean quoted) {
        String keys = referencedSide ? "k.confkey" : "k.conkey";
        String relation = referencedSide ? "k.confrelid" : "k.conrelid";
        return "ARRAY(SELECT " + (quoted ? "pg_catalog.quote_ident(a.attname)" : "a.attname")
                + " FROM pg_catalog.unnest(" + keys + ") WITH ORDINALITY u(attnum, ord)"
                + " JOIN pg_catalog.pg_attribute a ON a.attrelid = " + relation + " AND a.attnum = u.attnum"
                + " ORDER BY u.ord)";
    }
}
