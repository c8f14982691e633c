package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.source.KeyMatch;
import io.dpone.backfill.source.SourceKeyProbe;
import io.dpone.backfill.source.SourceKeyType;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorKeys.Column;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorKeys.Key;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * An inbound key's referencing values against the source table (issue 36): its distinct values (tuples, for a
 * composite key) whose every column is set, since SQL Server checks no row with a NULL in the key, read as text on
 * the target and probed in the source through its {@link SourceKeyProbe}, each column compared as its
 * {@link MssqlKeyComparison} says. A miss the comparison cannot be sure of is kept apart: it must never become an
 * ERROR.
 */
final class MssqlDoctorKeyValues {
    /** Distinct referencing values probed against the source; beyond this, the swap checks them. */
    static final int PROBED_VALUES = 100_000;

    sealed interface Outcome permits TooMany, NotComparable, Probed {
    }

    /** More than {@link #PROBED_VALUES} distinct values: not probed. */
    record TooMany() implements Outcome {
    }

    /** {@code column}'s values cannot be compared exactly with the source column of {@code sourceType}: not probed. */
    record NotComparable(String column, String type, String sourceType) implements Outcome {
    }

    /** {@code missing}: surely absent from the source; {@code unsure}: absent as written, SQL Server may still match them. */
    record Probed(int distinct, List<String> missing, List<String> unsure) implements Outcome {
    }

    private final Connection target;
    private final SourceKeyProbe probe;
    private final SourceTable sourceTable;

    MssqlDoctorKeyValues(Connection target, SourceTable sourceTable) {
        this.target = target;
        this.probe = sourceTable.keyProbe();
        this.sourceTable = sourceTable;
    }

    /** @param sourceColumns the source column loading each referenced column, in key order */
    Outcome probe(Key key, List<String> sourceColumns) throws SQLException {
        List<MssqlKeyComparison> comparisons = new ArrayList<>();
        for (int i = 0; i < key.columns().size(); i++) {
            Column column = key.columns().get(i);
            SourceKeyType sourceType = probe.columnType(sourceTable.schema(), sourceTable.table(), sourceColumns.get(i));
            Optional<MssqlKeyComparison> comparison = MssqlKeyComparison.of(column.type(), column.collation(), sourceType);
            if (comparison.isEmpty()) {
                return new NotComparable(column.name(), column.type(), sourceType.name());
            }
            comparisons.add(comparison.get());
        }
        List<String[]> values = distinct(key);
        if (values.size() > PROBED_VALUES) {
            return new TooMany();
        }
        List<String> missing = new ArrayList<>();
        List<String[]> asked = new ArrayList<>();
        for (String[] tuple : values) {
            String[] asSource = asSource(tuple, comparisons);
            if (asSource == null) {
                missing.add(SourceKeyProbe.shown(tuple));
            } else {
                asked.add(asSource);
            }
        }
        // Exactly first, which an index on the source column serves; only what that misses as SQL Server compares.
        List<String[]> left = probe.missing(sourceTable.schema(), sourceTable.table(), sourceColumns,
                comparisons.stream().map(MssqlKeyComparison::exact).toList(), asked);
        List<KeyMatch> loose = comparisons.stream().map(MssqlKeyComparison::loose).toList();
        if (!left.isEmpty() && comparisons.stream().anyMatch(c -> c.loose() != c.exact())) {
            left = probe.missing(sourceTable.schema(), sourceTable.table(), sourceColumns, loose, left);
        }
        List<String> unsure = new ArrayList<>();
        for (String[] tuple : left) {
            boolean sure = true;
            for (int i = 0; i < tuple.length; i++) {
                sure &= comparisons.get(i).surelyMissing(tuple[i]);
            }
            (sure ? missing : unsure).add(SourceKeyProbe.shown(tuple));
        }
        Collections.sort(missing);
        return new Probed(values.size(), missing, unsure);
    }

    /**
     * The distinct values of {@code columns} of {@code qualifiedTable} whose every column is set, as text, at most
     * {@code limit} of them.
     */
    static String distinctSql(String qualifiedTable, List<String> columns, int limit) {
        List<String> quoted = columns.stream().map(c -> "r." + MssqlIdentifiers.quote(c)).toList();
        return "SELECT DISTINCT TOP (" + limit + ") " + String.join(", ", quoted.stream()
                .map(c -> "CONVERT(nvarchar(4000), " + c + ")").toList()) + " FROM " + qualifiedTable + " AS r WHERE "
                + String.join(" AND ", quoted.stream().map(c -> c + " IS NOT NULL").toList());
    }

    private List<String[]> distinct(Key key) throws SQLException {
        int n = key.columns().size();
        List<String[]> values = new ArrayList<>();
        String sql = distinctSql(key.qualifiedTable(), key.columns().stream().map(Column::name).toList(), PROBED_VALUES + 1);
        try (PreparedStatement ps = target.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String[] tuple = new String[n];
                for (int i = 0; i < n; i++) {
                    tuple[i] = rs.getString(i + 1);
                }
                values.add(tuple);
            }
        }
        return values;
    }

    /** The tuple as the source compares it; null when one of its values can equal none there. */
    private static String[] asSource(String[] tuple, List<MssqlKeyComparison> comparisons) {
        String[] converted = new String[tuple.length];
        for (int i = 0; i < tuple.length; i++) {
            Optional<String> value = comparisons.get(i).asSource(tuple[i]);
            if (value.isEmpty()) {
                return null;
            }
            converted[i] = value.get();
        }
        return converted;
    }
}
