package io.dpone.backfill.testsupport.mssql;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Smoke test of whichever engine resolved (Babelfish on a machine without SQL Server or Docker): it starts, a fresh
 * database is reachable, a committed write is seen by another session and a rolled-back one is not.
 */
class SqlServerTestEngineIT {
    private static SqlServerTestEngine engine;
    private static String database;

    /** Per test, so that without an engine every test is reported skipped with the reason (cheap: resolved once). */
    @BeforeEach
    void start() {
        engine = SqlServerTestEngine.require();
        if (database == null) {
            database = engine.freshDatabase("smoke");
            System.out.println("SqlServerTestEngineIT runs on " + engine);
        }
    }

    @Test
    void aFreshDatabaseIsEmptyAndIsTheConnectionsCurrentDatabase() throws SQLException {
        String fresh = engine.freshDatabase("empty");
        try (Connection c = engine.connect(fresh); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT DB_NAME() AS db, (SELECT count(*) FROM sys.tables) AS tables")) {
            rs.next();
            assertThat(rs.getString("db")).isEqualTo(fresh);
            assertThat(rs.getInt("tables")).isZero();
        }
    }

    @Test
    void aCommittedWriteIsSeenByAnotherSessionAndARolledBackOneIsNot() throws SQLException {
        try (Connection writer = engine.connect(database); Connection reader = engine.connect(database);
             Statement w = writer.createStatement()) {
            w.execute("CREATE TABLE dbo.smoke (id int NOT NULL PRIMARY KEY, note nvarchar(40) NOT NULL)");
            writer.setAutoCommit(false);
            w.executeUpdate("INSERT INTO dbo.smoke (id, note) VALUES (1, N'kept')");
            writer.commit();
            w.executeUpdate("INSERT INTO dbo.smoke (id, note) VALUES (2, N'undone')");
            writer.rollback();

            try (Statement r = reader.createStatement();
                 ResultSet rs = r.executeQuery("SELECT id, note FROM dbo.smoke ORDER BY id")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("id")).isEqualTo(1);
                assertThat(rs.getString("note")).isEqualTo("kept");
                assertThat(rs.next()).as("the rolled-back row").isFalse();
            }
        }
    }

    @Test
    void theEngineSaysWhatItIsAndItsUrlNamesTheDatabase() {
        assertThat(engine.kind()).isNotNull();
        assertThat(engine.jdbcUrl(database)).startsWith("jdbc:sqlserver://").endsWith(";databaseName=" + database);
        assertThat(engine.kind().isSqlServer()).isEqualTo(engine.kind() != EngineKind.BABELFISH);
    }
}
