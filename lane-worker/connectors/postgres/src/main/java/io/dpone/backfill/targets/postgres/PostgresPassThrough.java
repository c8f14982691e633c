package io.dpone.backfill.targets.postgres;

import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresCatalog.Column;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresFailures;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Whether binary COPY tuples can pass from the source table into the load table untouched: every loaded column has
 * the same built-in type (the same type OID, below FirstNormalObjectId, so it means the same type in every
 * database) and the same type modifier on both sides. A user type (enum, domain, composite, or an array of one) has
 * a per-database OID, and binary arrays and composites carry element OIDs, so those go as text (ADR 0017).
 */
final class PostgresPassThrough {
    /** PostgreSQL's FirstNormalObjectId: OIDs below it are assigned by initdb, the same in every cluster. */
    static final long FIRST_NORMAL_OBJECT_ID = 16384;

    private PostgresPassThrough() {
    }

    static boolean identicalTypes(Connection source, String sourceSchema, String sourceTable, Connection target,
                                  String loadSchema, String loadTable, LoadColumns columns) {
        Map<String, Column> from = columns(source, sourceSchema, sourceTable);
        Map<String, Column> to = columns(target, loadSchema, loadTable);
        if (columns.target().isEmpty()) {
            return false;
        }
        for (int i = 0; i < columns.target().size(); i++) {
            Column s = from.get(columns.source().get(i));
            Column t = to.get(columns.target().get(i));
            if (s == null || t == null || s.typeId() >= FIRST_NORMAL_OBJECT_ID || s.typeId() != t.typeId()
                    || s.typmod() != t.typmod()) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, Column> columns(Connection c, String schema, String table) {
        try {
            PostgresCatalog catalog = new PostgresCatalog(c);
            Optional<Relation> relation = catalog.relation(schema, table);
            if (relation.isEmpty()) {
                return Map.of();
            }
            return catalog.columns(relation.get().oid()).stream().collect(Collectors.toMap(Column::name, Function.identity()));
        } catch (SQLException e) {
            throw PostgresFailures.of("could not read the column types of " + schema + "." + table, e);
        }
    }
}
