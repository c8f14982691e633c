package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.core.reconcile.RecordKeyText;
import io.dpone.backfill.source.TypeFamily;
import io.dpone.backfill.targets.mssql.types.MssqlColumn;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The campaign's key on the published table: its columns' values read back into Java, their canonical key text and
 * hash as the source digests them ({@link RecordKeyText}), and the text's SHA-256, which the queue and the staged
 * tables join on (a byte comparison: the published table's collation may fold case, the key text must not).
 * Only keys of smallint, int, bigint, nvarchar/varchar and uniqueidentifier columns print as the source's text;
 * any other key column is refused up front, naming it.
 */
final class PassKey {
    private final List<String> columns;
    private final List<TypeFamily> families;

    private PassKey(List<String> columns, List<TypeFamily> families) {
        this.columns = columns;
        this.families = families;
    }

    static PassKey of(String table, List<MssqlColumn> keyColumns) {
        List<String> names = new ArrayList<>();
        List<TypeFamily> families = new ArrayList<>();
        for (MssqlColumn column : keyColumns) {
            if (!MssqlReconcileRequirements.digestibleKey(column.typeName())) {
                throw new IllegalArgumentException("reconciliation into " + table + " cannot digest key column "
                        + column.name() + " of type " + column.typeName() + ": keys of "
                        + MssqlReconcileRequirements.KEY_TYPES + " columns can be compared with the source's");
            }
            TypeFamily family = PassColumns.family(column);
            names.add(column.name());
            families.add(family);
        }
        return new PassKey(List.copyOf(names), List.copyOf(families));
    }

    List<String> columns() {
        return columns;
    }

    TypeFamily family(int i) {
        return families.get(i);
    }

    /** The key's values from {@code rs}'s columns {@code first}, {@code first + 1}, ... */
    List<Object> read(ResultSet rs, int first) throws SQLException {
        List<Object> values = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            Object value = switch (families.get(i)) {
                case INT16 -> rs.getShort(first + i);
                case INT32 -> rs.getInt(first + i);
                case INT64 -> rs.getLong(first + i);
                case UUID -> {
                    String text = rs.getString(first + i);
                    yield text == null ? null : UUID.fromString(text);
                }
                default -> rs.getString(first + i);
            };
            values.add(rs.wasNull() ? null : value);
        }
        return values;
    }

    /** The key's values from the source's text form of each. */
    List<Object> decode(String[] texts, int first) {
        List<Object> values = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            values.add(PassColumns.decode(families.get(i), texts[first + i]));
        }
        return values;
    }

    static byte[] sha(String keyText) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(keyText.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
