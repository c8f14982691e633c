/**
 * The SQL Server side of a column: which target column may receive which decoded PostgreSQL column
 * ({@link io.dpone.backfill.targets.mssql.types.MssqlTypeMap}, called by doctor on the columns sys.columns
 * describes), the value guards each accepted pair applies as rows stream, and the objects the chunk sink's
 * ISQLServerBulkData hands SQLServerBulkCopy ({@link io.dpone.backfill.targets.mssql.types.MssqlColumnBinding}).
 *
 * <p>A pair is refused when some value the source type allows could not be held; it is accepted with guards when
 * only some values could not; a guarded value that does not fit throws
 * {@link io.dpone.backfill.targets.mssql.types.MssqlValueRejectedException} and the caller fails the chunk. Nothing is
 * rounded, cut or clamped. The table of pairs, and which engine proved which, is src-docs/sqlserver-type-map.md.
 */
package io.dpone.backfill.targets.mssql.types;
