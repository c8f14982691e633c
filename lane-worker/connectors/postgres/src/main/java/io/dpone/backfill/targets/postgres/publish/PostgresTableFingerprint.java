package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.targets.postgres.PostgresPublishedDigests;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * A table's content fingerprint on PostgreSQL: {@code count(*)} and the exact sum (numeric, so it never overflows) of
 * {@code hashtextextended(row::text, 0)} over every row, which does not depend on row order. A row's text depends
 * on output settings, so they are pinned with SET LOCAL: the caller runs this inside a transaction.
 */
public final class PostgresTableFingerprint {
    private static final String[][] PINNED = {
            {"DateStyle", "ISO, YMD"}, {"IntervalStyle", "postgres"}, {"TimeZone", "UTC"},
            {"extra_float_digits", "1"}, {"bytea_output", "hex"}, {"lc_monetary", "C"}};

    private PostgresTableFingerprint() {
    }

    /**
     * The table's fingerprint of the same kind as {@code earlier}, so the two compare: a digest of every row (all
     * columns in order, on the binary wire) when {@code earlier} is a sum of the lanes' row digests (ADR 0022), else
     * {@link #of}.
     */
    static TableFingerprint comparableWith(Connection connection, String schema, String table, TableFingerprint earlier)
            throws SQLException {
        if (earlier == null || !earlier.fromRowDigests()) {
            return of(connection, schema, table);
        }
        PostgresCatalog catalog = new PostgresCatalog(connection);
        Relation relation = catalog.relation(schema, table).orElseThrow(
                () -> new IllegalStateException("cannot fingerprint " + schema + "." + table + ": it does not exist"));
        List<String> columns = catalog.columns(relation.oid()).stream().map(PostgresCatalog.Column::name).toList();
        try {
            return TableFingerprint.ofRowDigest(new PostgresPublishedDigests(connection)
                    .wholeTable(schema, table, columns, RowEncoding.POSTGRES_COPY_BINARY));
        } catch (SQLException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("could not digest the rows of " + schema + "." + table + ": " + e.getMessage(), e);
        }
    }

    static TableFingerprint of(Connection connection, String schema, String table) throws SQLException {
        if (connection.getAutoCommit()) {
            throw new IllegalStateException("a fingerprint pins session settings with SET LOCAL: run it in a transaction");
        }
        PostgresJdbc jdbc = new PostgresJdbc(connection);
        for (String[] setting : PINNED) {
            jdbc.setLocal(setting[0], setting[1]);
        }
        // sum(bigint) is exact (a numeric result from a 128-bit accumulator) and gives the same text as summing the
        // hashes cast to numeric one by one, which fingerprints stored by earlier builds did, at a fraction of the cost.
        String sql = "SELECT count(*), coalesce(sum(pg_catalog.hashtextextended(t::text, 0)), 0)::text FROM "
                + PostgresIdentifiers.qualified(schema, table) + " AS t";
        try (PreparedStatement ps = connection.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return new TableFingerprint(rs.getLong(1), rs.getString(2));
        }
    }
}
