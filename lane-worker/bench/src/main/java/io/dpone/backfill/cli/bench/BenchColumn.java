package io.dpone.backfill.cli.bench;

/** One column of the benchmark table: its PostgreSQL type, its reviewed SQL Server type and how rows are generated. */
record BenchColumn(String name, String postgresType, String sqlServerType, boolean nullable, String generator) {
}
