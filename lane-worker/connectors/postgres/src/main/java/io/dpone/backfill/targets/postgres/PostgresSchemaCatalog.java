package io.dpone.backfill.targets.postgres;

import io.dpone.backfill.core.generate.SchemaCatalog;
import io.dpone.backfill.core.campaign.IdentifierComparison;
import io.dpone.backfill.core.generate.TableReference;
import io.dpone.backfill.postgres.PostgresFailures;
import io.dpone.backfill.postgres.PostgresJdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** A PostgreSQL schema's plain tables (no partitions of a partitioned table) and the foreign keys among them. */
public final class PostgresSchemaCatalog implements SchemaCatalog {

    private static final String TABLES = """
            SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = ? AND c.relkind = 'r' AND NOT c.relispartition ORDER BY 1""";
    private static final String REFERENCES = """
            SELECT DISTINCT t.relname, r.relname
              FROM pg_catalog.pg_constraint k
              JOIN pg_catalog.pg_class t ON t.oid = k.conrelid
              JOIN pg_catalog.pg_class r ON r.oid = k.confrelid
              JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace
              JOIN pg_catalog.pg_namespace rn ON rn.oid = r.relnamespace
             WHERE k.contype = 'f' AND k.conparentid = 0 AND n.nspname = ? AND rn.nspname = ? ORDER BY 1, 2""";

    private final Connection connection;

    public PostgresSchemaCatalog(Connection connection) {
        this.connection = connection;
    }

    @Override
    public List<String> tables(String schema) {
        try {
            return new PostgresJdbc(connection).list(TABLES, rs -> rs.getString(1), schema);
        } catch (SQLException e) {
            throw PostgresFailures.of("could not list the tables of schema " + schema, e);
        }
    }

    @Override
    public List<TableReference> references(String schema) {
        try {
            return new PostgresJdbc(connection).list(REFERENCES, rs -> new TableReference(rs.getString(1), rs.getString(2)),
                    schema, schema);
        } catch (SQLException e) {
            throw PostgresFailures.of("could not read the foreign keys of schema " + schema, e);
        }
    }

    /** PostgreSQL compares quoted identifiers exactly; the names it lists are stored as they are quoted. */
    @Override
    public IdentifierComparison names() {
        return IdentifierComparison.EXACT;
    }
}
