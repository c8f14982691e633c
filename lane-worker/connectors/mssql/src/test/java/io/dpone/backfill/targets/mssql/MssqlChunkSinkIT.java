package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.source.postgres.PostgresSourceAdapter;
import io.dpone.backfill.core.lane.ChunkSink;
import io.dpone.backfill.core.lane.ChunkSinkContract;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import io.dpone.backfill.targets.ChunkLoad;
import io.dpone.backfill.targets.mssql.ledger.MssqlLedgerConnection;
import io.dpone.backfill.testsupport.mssql.EngineKind;
import io.dpone.backfill.testsupport.mssql.SqlServerTestEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chunk sink contract on the resolved T-SQL engine: receipt, SQLServerBulkCopy inside the same transaction and
 * the fenced mark commit together or not at all. The source is a real PostgreSQL table, read only for its column
 * types. Which engine ran it is printed; Babelfish is not SQL Server.
 */
class MssqlChunkSinkIT extends ChunkSinkContract {
    private static SqlServerTestEngine engine;
    private static String sourceDatabase;
    private final List<Connection> opened = new ArrayList<>();
    private String database;
    private Connection source;

    private void requireEngine() {
        if (engine == null) {
            engine = SqlServerTestEngine.require();
            System.out.println("MssqlChunkSinkIT runs on " + engine);
            sourceDatabase = SharedEmbeddedPostgres.freshDatabase("mssql_sink_source");
            try (Connection c = SharedEmbeddedPostgres.get().connect(sourceDatabase); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE public.load_source (id bigint PRIMARY KEY, code text NOT NULL)");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @BeforeEach
    void createLoadTable() throws SQLException {
        try (Connection c = targetConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE dbo.load_rows (id bigint NOT NULL PRIMARY KEY, code nvarchar(100) NOT NULL)");
        }
    }

    @AfterEach
    void closeConnections() throws SQLException {
        for (Connection c : opened) {
            c.close();
        }
    }

    @Override
    protected LedgerStore newLedger() {
        requireEngine();
        database = engine.freshDatabase("sink");
        try {
            source = SharedEmbeddedPostgres.get().connect(sourceDatabase);
            opened.add(source);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return MssqlLedgerConnection.store(open(), STATE_SCHEMA);
    }

    @Override
    protected ChunkSink sink(Duration receiptWait) {
        return new MssqlChunkSink(open(), new ChunkLoad(STATE_SCHEMA, "dbo", "load_rows", List.of("id", "code"),
                List.of("id"), receiptWait, new SourceTable(new PostgresSourceAdapter(), source, "public", "load_source"), null));
    }

    @Override
    protected Connection targetConnection() throws SQLException {
        return engine.connect(database);
    }

    @Override
    protected String loadTable() {
        return "dbo.load_rows";
    }

    @Override
    protected void expireChunkLease(String runKey, int chunkId) throws SQLException {
        try (Connection c = targetConnection(); PreparedStatement ps = c.prepareStatement("UPDATE " + STATE_SCHEMA
                + ".chunk SET lease_expires = DATEADD(second, -1, SYSUTCDATETIME()) WHERE run_key = ? AND chunk_id = ?")) {
            ps.setString(1, runKey);
            ps.setInt(2, chunkId);
            ps.executeUpdate();
        }
    }

    /** SQL Server reports a lock timeout as error 1222; Babelfish as 33557097 (seen here, not SQL Server behaviour). */
    @Override
    protected void assertReceiptWaitExpired(Throwable failure) {
        assertThat(failure).isInstanceOf(SQLException.class);
        int expected = engine.kind() == EngineKind.BABELFISH ? 33557097 : 1222;
        assertThat(((SQLException) failure).getErrorCode()).as(failure.getMessage()).isEqualTo(expected);
    }

    private Connection open() {
        try {
            Connection c = targetConnection();
            opened.add(c);
            return c;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
