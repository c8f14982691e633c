package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.IdentifierLimit;
import io.dpone.backfill.core.validation.ColumnNameFindings;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.postgres.PostgresCatalog.Column;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Source checks: the table exists and can be read; the chunk column exists, is NOT NULL and fits the chunk kind
 * (physical chunks: the heap can be read in block ranges, {@link PostgresDoctorHeap}), and how many times its
 * chunks read the table ({@link PostgresDoctorReadCost}); the unique key columns exist, are NOT NULL and are
 * enforced unique by a key or unique index.
 */
public final class PostgresDoctorSource {
    private static final Set<String> INTEGER_TYPES = Set.of("smallint", "integer", "bigint");

    /** Unique, valid, non-partial indexes on plain columns, with their key column names. */
    private static final String UNIQUE_INDEXES = """
            SELECT ARRAY(SELECT a.attname::text
                           FROM pg_catalog.unnest(i.indkey::pg_catalog.int2[]) WITH ORDINALITY k(attnum, ord)
                           JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
                          WHERE k.ord <= i.indnkeyatts)
              FROM pg_catalog.pg_index i
             WHERE i.indrelid = ?::oid AND i.indisunique AND i.indisvalid
               AND i.indpred IS NULL AND i.indexprs IS NULL""";

    private final Connection source;
    private final BackfillCampaignSpec spec;
    private final List<Finding> findings;

    public PostgresDoctorSource(Connection source, BackfillCampaignSpec spec, List<Finding> findings) {
        this.source = source;
        this.spec = spec;
        this.findings = findings;
    }

    /** Runs the checks; returns the source's columns, or empty when the table is missing. */
    public Optional<List<Column>> check() throws SQLException {
        String schema = spec.getSource().getSchema();
        String table = spec.getSource().getTable();
        PostgresCatalog catalog = new PostgresCatalog(source);
        Optional<Relation> relation = catalog.relation(schema, table);
        if (relation.isEmpty() || "rpvmf".indexOf(relation.get().kind()) < 0) {
            findings.add(Finding.error("source.table.missing", "source table " + schema + "." + table
                    + " does not exist", "Check spec.source.schema and spec.source.table against the source database,"
                    + " and that the Secret points at the right database."));
            return Optional.empty();
        }
        readable(relation.get());
        new PostgresDoctorVisibility(source, findings).check(relation.get());
        List<Column> columns = catalog.columns(relation.get().oid());
        if (!ColumnNameFindings.check("source", schema + "." + table, columns.stream().map(Column::name).toList(),
                IdentifierLimit.POSTGRES, findings)) {
            return Optional.empty();
        }
        boolean chunkable = !spec.getChunk().getKind().keyed() || chunkColumn(columns);
        new PostgresDoctorHeap(source, findings).check(schema, table, spec.getChunk().getKind());
        if (chunkable) {
            new PostgresDoctorReadCost(source, findings).check(schema, table, spec.getChunk());
        }
        uniqueKey(relation.get(), columns);
        return Optional.of(columns);
    }

    private void readable(Relation table) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("SELECT pg_catalog.has_schema_privilege(?, 'USAGE')"
                + " AND pg_catalog.has_table_privilege(?::oid, 'SELECT'), current_user")) {
            ps.setString(1, table.schema());
            ps.setLong(2, table.oid());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getBoolean(1)) {
                    findings.add(Finding.ok("source.table.readable", "source table " + name(table) + " can be read"));
                } else {
                    findings.add(Finding.error("source.table.select-denied", "role " + rs.getString(2)
                            + " cannot read source table " + name(table), "GRANT USAGE ON SCHEMA "
                            + PostgresIdentifiers.quote(table.schema()) + " and GRANT SELECT ON "
                            + PostgresIdentifiers.qualified(table.schema(), table.name()) + " to the source role."));
                }
            }
        }
    }

    /** Whether the chunk column fits the chunk kind. */
    private boolean chunkColumn(List<Column> columns) {
        String name = spec.getChunk().getColumn();
        ChunkKind kind = spec.getChunk().getKind();
        Optional<Column> column = find(columns, name);
        if (column.isEmpty()) {
            findings.add(Finding.error("source.chunk-column.missing", "chunk column " + name
                    + " does not exist in the source table", "Set spec.chunk.column to an existing NOT NULL "
                    + kind.wireName() + " column of the source table."));
            return false;
        }
        boolean problem = false;
        if (!column.get().notNull()) {
            problem = true;
            findings.add(Finding.error("source.chunk-column.nullable", "chunk column " + name + " allows NULL:"
                    + " rows with a NULL key belong to no chunk and would never be loaded",
                    "Make the column NOT NULL in the source (after backfilling any NULLs), or chunk on another column."));
        }
        String type = column.get().baseType();
        boolean fits = kind == ChunkKind.UUID ? type.equals("uuid") : INTEGER_TYPES.contains(type);
        if (!fits) {
            problem = true;
            findings.add(Finding.error("source.chunk-column.type-mismatch", "chunk column " + name + " has type "
                    + column.get().type() + ", but chunk.kind " + kind.wireName() + " needs "
                    + (kind == ChunkKind.UUID ? "uuid" : "smallint, integer or bigint"),
                    "Set spec.chunk.kind to match the column's type, or chunk on a column of the matching type."));
        }
        if (!problem) {
            findings.add(Finding.ok("source.chunk-column.ok", "chunk column " + name + " is NOT NULL " + type));
        }
        return !problem;
    }

    private void uniqueKey(Relation table, List<Column> columns) throws SQLException {
        List<String> key = spec.getUniqueKey();
        List<String> missing = new ArrayList<>();
        for (String name : key) {
            Optional<Column> column = find(columns, name);
            if (column.isEmpty()) {
                missing.add(name);
            } else if (!column.get().notNull()) {
                findings.add(Finding.error("source.unique-key.nullable", "unique key column " + name
                        + " allows NULL in the source: validation would block publication on any NULL key",
                        "Make the column NOT NULL in the source, or choose a unique key of NOT NULL columns."));
            }
        }
        if (!missing.isEmpty()) {
            findings.add(Finding.error("source.unique-key.missing", "unique key column(s) " + missing
                    + " do not exist in the source table", "Fix spec.uniqueKey to name source columns."));
            return;
        }
        if (enforced(table.oid(), new HashSet<>(key))) {
            findings.add(Finding.ok("source.unique-key.enforced", "unique key " + key
                    + " is enforced by a primary key or unique index in the source"));
        } else {
            findings.add(Finding.warning("source.unique-key.not-enforced", "unique key " + key
                    + " is declared, not enforced: validation will check duplicates",
                    "Add a primary key or unique index on exactly these columns in the source, or accept that"
                            + " duplicates found at validation will block publication."));
        }
    }

    private boolean enforced(long tableOid, Set<String> key) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement(UNIQUE_INDEXES)) {
            ps.setLong(1, tableOid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String[] columns = (String[]) rs.getArray(1).getArray();
                    if (columns.length == key.size() && key.equals(Set.of(columns))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    public static Optional<Column> find(List<Column> columns, String name) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    private static String name(Relation table) {
        return table.schema() + "." + table.name();
    }
}
