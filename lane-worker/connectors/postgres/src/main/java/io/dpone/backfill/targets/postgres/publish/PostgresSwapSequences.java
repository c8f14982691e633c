package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The sequences behind identity and serial columns across a swap. A shadow created with LIKE gets fresh identity
 * sequences starting at 1, while a serial column's default keeps using the live table's sequence, which stays
 * OWNED BY the live column (dropping the backup later would drop it). So before the swap: positions are moved past
 * both the loaded rows and the old sequence, owned serial sequences follow the column to the new table, and
 * identity sequences trade names so that code calling {@code nextval('orders_id_seq')} keeps working.
 */
public final class PostgresSwapSequences {
    /** dependency: 'i' identity, 'a' OWNED BY (serial), 'n' referenced by the column default. */
    record ColumnSequence(String column, long oid, String schema, String name, char dependency) {
    }

    private static final String SEQUENCES = """
            SELECT a.attname, s.oid, sn.nspname, s.relname, d.deptype::text
              FROM pg_catalog.pg_attribute a
              JOIN pg_catalog.pg_depend d ON d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass
                   AND d.refobjid = a.attrelid AND d.refobjsubid = a.attnum
                   AND d.classid = 'pg_catalog.pg_class'::pg_catalog.regclass AND d.deptype IN ('a', 'i')
              JOIN pg_catalog.pg_class s ON s.oid = d.objid AND s.relkind = 'S'
              JOIN pg_catalog.pg_namespace sn ON sn.oid = s.relnamespace
             WHERE a.attrelid = ?::oid AND a.attnum > 0 AND NOT a.attisdropped
            UNION
            SELECT a.attname, s.oid, sn.nspname, s.relname, 'n'
              FROM pg_catalog.pg_attribute a
              JOIN pg_catalog.pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
              JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_attrdef'::pg_catalog.regclass
                   AND d.objid = ad.oid AND d.refclassid = 'pg_catalog.pg_class'::pg_catalog.regclass
              JOIN pg_catalog.pg_class s ON s.oid = d.refobjid AND s.relkind = 'S'
              JOIN pg_catalog.pg_namespace sn ON sn.oid = s.relnamespace
             WHERE a.attrelid = ?::oid AND a.attnum > 0 AND NOT a.attisdropped
             ORDER BY 1, 2""";

    private final Connection connection;

    PostgresSwapSequences(Connection connection) {
        this.connection = connection;
    }

    List<ColumnSequence> of(long tableOid) throws SQLException {
        List<ColumnSequence> sequences = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(SEQUENCES)) {
            ps.setLong(1, tableOid);
            ps.setLong(2, tableOid);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sequences.add(new ColumnSequence(rs.getString(1), rs.getLong(2), rs.getString(3),
                            rs.getString(4), rs.getString(5).charAt(0)));
                }
            }
        }
        return sequences;
    }

    /**
     * Sets every sequence feeding a column of {@code incoming} to the largest of: the column's max in
     * {@code incoming}, the last value of {@code outgoing}'s sequences for the same column, its own last value.
     * A sequence never moves backwards, and the next generated value is past every loaded and every issued one.
     */
    void carryPositions(Relation outgoing, Relation incoming) throws SQLException {
        List<ColumnSequence> before = of(outgoing.oid());
        for (ColumnSequence seq : distinctByOid(of(incoming.oid()))) {
            Long position = max(loadedMax(incoming, seq.column()), lastValue(seq.oid()));
            for (ColumnSequence old : before) {
                if (old.column().equals(seq.column())) {
                    position = max(position, lastValue(old.oid()));
                }
            }
            if (position != null) {
                setValue(seq.oid(), position);
            }
        }
    }

    /** A sequence OWNED BY an outgoing column that the incoming column's default uses moves to the incoming column. */
    void transferOwnership(Relation outgoing, Relation incoming) throws SQLException {
        List<ColumnSequence> incomingSequences = of(incoming.oid());
        for (ColumnSequence owned : of(outgoing.oid())) {
            if (owned.dependency() != 'a') {
                continue;
            }
            boolean usedByIncoming = incomingSequences.stream()
                    .anyMatch(s -> s.oid() == owned.oid() && s.column().equals(owned.column()) && s.dependency() == 'n');
            if (usedByIncoming) {
                PostgresShadowSql.execute(connection, "ALTER SEQUENCE " + PostgresIdentifiers.qualified(owned.schema(), owned.name())
                        + " OWNED BY " + PostgresIdentifiers.qualified(incoming.schema(), incoming.name()) + "."
                        + PostgresIdentifiers.quote(owned.column()));
            }
        }
    }

    /**
     * Identity sequences of the same column trade names: the outgoing one (read before any rename) moves to
     * {@code away(name)}, the incoming one takes its name.
     */
    void carryIdentityNames(List<ColumnSequence> outgoing, List<ColumnSequence> incoming, UnaryOperator<String> away)
            throws SQLException {
        for (ColumnSequence old : outgoing) {
            if (old.dependency() != 'i') {
                continue;
            }
            rename(old.schema(), old.name(), away.apply(old.name()));
            for (ColumnSequence fresh : incoming) {
                if (fresh.dependency() == 'i' && fresh.column().equals(old.column())) {
                    rename(fresh.schema(), fresh.name(), old.name());
                }
            }
        }
    }

    private void rename(String schema, String from, String to) throws SQLException {
        PostgresShadowSql.execute(connection, "ALTER SEQUENCE " + PostgresIdentifiers.qualified(schema, from)
                + " RENAME TO " + PostgresIdentifiers.quote(to));
    }

    private Long loadedMax(Relation table, String column) throws SQLException {
        String sql = "SELECT max(" + PostgresIdentifiers.quote(column) + ")::bigint FROM "
                + PostgresIdentifiers.qualified(table.schema(), table.name());
        try (PreparedStatement ps = connection.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            long value = rs.getLong(1);
            return rs.wasNull() ? null : value;
        }
    }

    private Long lastValue(long sequenceOid) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT pg_catalog.pg_sequence_last_value(?::oid::pg_catalog.regclass)")) {
            ps.setLong(1, sequenceOid);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long value = rs.getLong(1);
                return rs.wasNull() ? null : value;
            }
        }
    }

    private void setValue(long sequenceOid, long value) throws SQLException {
        // Outside the sequence's bounds setval would fail; such a value cannot be generated anyway.
        try (PreparedStatement ps = connection.prepareStatement("SELECT pg_catalog.setval(s.seqrelid::pg_catalog.regclass, ?, true)"
                + " FROM pg_catalog.pg_sequence s WHERE s.seqrelid = ?::oid AND ? BETWEEN s.seqmin AND s.seqmax")) {
            ps.setLong(1, value);
            ps.setLong(2, sequenceOid);
            ps.setLong(3, value);
            ps.executeQuery().close();
        }
    }

    private static List<ColumnSequence> distinctByOid(List<ColumnSequence> sequences) {
        List<ColumnSequence> distinct = new ArrayList<>();
        for (ColumnSequence s : sequences) {
            if (distinct.stream().noneMatch(d -> d.oid() == s.oid())) {
                distinct.add(s);
            }
        }
        return distinct;
    }

    private static Long max(Long a, Long b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : Math.max(a, b);
    }
}
