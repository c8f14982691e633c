package io.dpone.backfill.targets.mssql.types;

import java.util.List;
import java.util.function.Supplier;

/**
 * A reviewed pair of source and target column, ready for rows: the guards every value passes and the conversion
 * into what the bulk copy receives. Built only by {@link MssqlTypeMap}.
 */
public final class MssqlColumnBinding {
    private final String sourceName;
    private final String pair;
    private final boolean targetNullable;
    private final List<ValueGuard> guards;
    private final BulkValueConverter converter;
    private final MssqlBulkColumn bulkColumn;

    MssqlColumnBinding(String sourceName, String pair, boolean targetNullable, List<ValueGuard> guards,
                       BulkValueConverter converter, MssqlBulkColumn bulkColumn) {
        this.sourceName = sourceName;
        this.pair = pair;
        this.targetNullable = targetNullable;
        this.guards = List.copyOf(guards);
        this.converter = converter;
        this.bulkColumn = bulkColumn;
    }

    public MssqlBulkColumn bulkColumn() {
        return bulkColumn;
    }

    /** The rules each value is checked against, in order, as a person reads them (doctor prints these). */
    public List<String> rules() {
        return guards.stream().map(ValueGuard::rule).toList();
    }

    /**
     * The object getRowData returns for {@code decoded} in this column.
     *
     * @param rowKey the row's key as the caller prints it, computed only when a value is refused
     * @throws MssqlValueRejectedException when the target cannot hold the value exactly
     */
    public Object bulkValue(Object decoded, Supplier<String> rowKey) throws MssqlValueRejectedException {
        if (decoded == null) {
            if (!targetNullable) {
                throw rejected(decoded, rowKey, "the target column is NOT NULL");
            }
            return null;
        }
        for (ValueGuard guard : guards) {
            if (!guard.admitsValue(decoded)) {
                throw rejected(decoded, rowKey, guard.rule());
            }
        }
        return converter.toBulkValue(decoded);
    }

    private MssqlValueRejectedException rejected(Object decoded, Supplier<String> rowKey, String rule) {
        return new MssqlValueRejectedException(sourceName, pair, rowKey.get(), rule, ShownValue.of(decoded));
    }
}
