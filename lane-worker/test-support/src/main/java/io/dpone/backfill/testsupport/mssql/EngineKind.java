package io.dpone.backfill.testsupport.mssql;

/**
 * Which T-SQL engine a test ran on, so a test can say what it proved where: only {@link #SQL_SERVER} and
 * {@link #SQL_SERVER_TESTCONTAINERS} are SQL Server; {@link #BABELFISH} is T-SQL on PostgreSQL with known gaps
 * (see {@code src-docs/babelfish-gaps.md}).
 */
public enum EngineKind {
    /** A real SQL Server (or Azure SQL) named by {@code BACKFILL_MSSQL_URL}. */
    SQL_SERVER,
    /** Microsoft's SQL Server image, started by Testcontainers. */
    SQL_SERVER_TESTCONTAINERS,
    /** Babelfish for PostgreSQL from {@code BACKFILL_BABELFISH_DIST}. */
    BABELFISH;

    public boolean isSqlServer() {
        return this != BABELFISH;
    }
}
