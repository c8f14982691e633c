package io.dpone.backfill.targets.postgres;

import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.lane.ChunkSink;
import io.dpone.backfill.core.lane.ChunkSinkContract;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import io.dpone.backfill.targets.ChunkLoad;
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

/** The chunk sink contract on real PostgreSQL, through the registered PostgreSQL target adapter. */
class PostgresChunkSinkIT extends ChunkSinkContract {
    private final PostgresTargetAdapter adapter = new PostgresTargetAdapter();
    private final List<Connection> opened = new ArrayList<>();
    private String database;

    @BeforeEach
    void createLoadTable() throws SQLException {
        try (Connection c = targetConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE public.load_rows (id bigint PRIMARY KEY, code text NOT NULL)");
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
        database = SharedEmbeddedPostgres.freshDatabase("sink");
        return adapter.ledger(open(), STATE_SCHEMA);
    }

    @Override
    protected ChunkSink sink(Duration receiptWait) {
        return adapter.chunkSink(open(), new ChunkLoad(STATE_SCHEMA, "public", "load_rows", List.of("id", "code"), List.of("id"),
                receiptWait, null, encoding()));
    }

    /** The encoding preparation recorded: none (the sink's default, COPY text) here. */
    protected RowEncoding encoding() {
        return null;
    }

    @Override
    protected Connection targetConnection() throws SQLException {
        return SharedEmbeddedPostgres.get().connect(database);
    }

    @Override
    protected String loadTable() {
        return "public.load_rows";
    }

    @Override
    protected void expireChunkLease(String runKey, int chunkId) throws SQLException {
        try (Connection c = targetConnection(); PreparedStatement ps = c.prepareStatement("UPDATE " + STATE_SCHEMA
                + ".chunk SET lease_expires = now() - interval '1 second' WHERE run_key = ? AND chunk_id = ?")) {
            ps.setString(1, runKey);
            ps.setInt(2, chunkId);
            ps.executeUpdate();
        }
    }

    @Override
    protected void assertReceiptWaitExpired(Throwable failure) {
        assertThat(failure).isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("55P03"));
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
