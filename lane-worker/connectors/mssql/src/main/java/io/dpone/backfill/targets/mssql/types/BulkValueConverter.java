package io.dpone.backfill.targets.mssql.types;

/** Turns a decoded, guarded, non-NULL value into the object getRowData hands the bulk copy for the target column. */
@FunctionalInterface
interface BulkValueConverter {
    Object toBulkValue(Object decoded);
}
