package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.generate.SourceTableFacts;
import io.dpone.backfill.core.generate.SourceTableFacts.KeyKind;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code backfill generate} reads of a source schema (issue 27): each plain table's shape, primary key and
 * size. Rows come from the planner's estimate ({@code reltuples}; for a table never analyzed, an integer key's
 * range stands in), pages from the relation's size; an integer key's bounds from {@code min} and {@code max},
 * which its primary key index answers without a scan; a single-column key's order in the heap from
 * {@code pg_stats.correlation}.
 */
public final class PostgresSourceTables {
    private static final String TABLES = """
            SELECT c.relname, c.reltuples::bigint,
                   pg_catalog.pg_relation_size(c.oid, 'main') / pg_catalog.current_setting('block_size')::bigint
              FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = ? AND c.relkind = 'r' AND NOT c.relispartition ORDER BY 1""";
    private static final String PRIMARY_KEY = """
            SELECT a.attname, t.typname
              FROM pg_catalog.pg_index i
              JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
              JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
              CROSS JOIN LATERAL pg_catalog.unnest(i.indkey) WITH ORDINALITY u(attnum, ord)
              JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = u.attnum
              JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
             WHERE n.nspname = ? AND c.relname = ? AND i.indisprimary
             ORDER BY u.ord""";
    private static final String CORRELATION = """
            SELECT correlation::float8 FROM pg_catalog.pg_stats
             WHERE schemaname = ? AND tablename = ? AND attname = ? AND NOT inherited AND correlation IS NOT NULL""";

    private final Connection source;

    public PostgresSourceTables(Connection source) {
        this.source = source;
    }

    public List<SourceTableFacts> of(String schema) throws SQLException {
        PostgresJdbc jdbc = new PostgresJdbc(source);
        List<Object[]> tables = jdbc.list(TABLES, rs -> new Object[] {rs.getString(1), rs.getLong(2), rs.getLong(3)}, schema);
        List<SourceTableFacts> facts = new ArrayList<>();
        for (Object[] t : tables) {
            String name = (String) t[0];
            List<String[]> key = jdbc.list(PRIMARY_KEY, rs -> new String[] {rs.getString(1), rs.getString(2)}, schema, name);
            KeyKind kind = key.size() != 1 ? KeyKind.OTHER : switch (key.get(0)[1]) {
                case "int2", "int4", "int8" -> KeyKind.INTEGER;
                case "uuid" -> KeyKind.UUID;
                default -> KeyKind.OTHER;
            };
            Long min = null;
            Long max = null;
            // How the key lies in the heap decides key ranges or block ranges (issue 41); null before ANALYZE.
            Double correlation = key.size() != 1 ? null
                    : jdbc.one(CORRELATION, rs -> rs.getDouble(1), schema, name, key.get(0)[0]).orElse(null);
            if (kind == KeyKind.INTEGER) {
                String column = PostgresIdentifiers.quote(key.get(0)[0]);
                Optional<Long[]> bounds = jdbc.one("SELECT min(" + column + ")::bigint, max(" + column + ")::bigint FROM "
                        + PostgresIdentifiers.qualified(schema, name), rs -> new Long[] {
                        (Long) rs.getObject(1), (Long) rs.getObject(2)});
                min = bounds.map(b -> b[0]).orElse(null);
                max = bounds.map(b -> b[1]).orElse(null);
            }
            long rows = (Long) t[1];
            if (rows < 0) {
                rows = min == null ? 0 : max - min + 1;
            }
            facts.add(new SourceTableFacts(name, new PostgresCatalog(source).shape(schema, name),
                    key.stream().map(k -> k[0]).toList(), kind, rows, (Long) t[2], min, max, correlation));
        }
        return facts;
    }
}
