package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.LedgerConflictException;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.LedgerStoreContract;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;
import io.dpone.backfill.testsupport.mssql.SqlServerTestEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ledger contract on the resolved T-SQL engine ({@link SqlServerTestEngine}: SQL Server when configured or in
 * Docker, else Babelfish), plus what only this adapter can show: the version check, the schema lock of concurrent
 * first runs, the lock timeout, autocommit restored after a failed transaction, receipt columns. One database for
 * the JVM; each test gets its own state schema. Without an engine every test is skipped, naming the options.
 */
class MssqlLedgerStoreIT extends LedgerStoreContract {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static SqlServerTestEngine engine;
    private static String database;
    /** Babelfish only: the two stores' sessions, kept across tests (see {@link #storeConnection(int)}). */
    private static final Connection[] WARM_SESSIONS = new Connection[2];

    private final String schema = "ledger_" + SCHEMAS.incrementAndGet();
    private final List<Connection> connections = new ArrayList<>();
    private Connection stateConnection;

    /** Runs before the contract's own setup (superclass methods come later), so a missing engine skips it too. */
    @BeforeEach
    void requireEngine() {
        if (engine == null) {
            engine = SqlServerTestEngine.require();
            database = engine.freshDatabase("ledger");
            System.out.println("MssqlLedgerStoreIT runs on " + engine);
        }
    }

    @AfterEach
    void closeConnections() throws SQLException {
        for (Connection c : connections) {
            c.close();
        }
    }

    @Override
    protected LedgerStore newStore() {
        requireEngine();
        stateConnection = storeConnection(0);
        return MssqlLedgerConnection.store(stateConnection, schema);
    }

    @Override
    protected LedgerStore otherStore() {
        return MssqlLedgerConnection.store(storeConnection(1), schema);
    }

    /**
     * A new connection per store on SQL Server, as the contract says. On Babelfish the two sessions are kept for
     * the JVM instead: a new Babelfish session parses each statement shape slowly the first time (its ANTLR parser
     * warms up per session: about a second a statement on a loaded machine, then milliseconds, whatever the
     * schema), which made the one-second lease tests measure the parser rather than the ledger. The store resets
     * what it relies on (autocommit, lock timeout, XACT_ABORT) when it is built; nothing else outlives a test.
     */
    private Connection storeConnection(int slot) {
        if (engine.kind() != io.dpone.backfill.testsupport.mssql.EngineKind.BABELFISH) {
            return connect();
        }
        synchronized (WARM_SESSIONS) {
            try {
                if (WARM_SESSIONS[slot] == null || WARM_SESSIONS[slot].isClosed()) {
                    WARM_SESSIONS[slot] = engine.connect(database);
                }
                return WARM_SESSIONS[slot];
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private final java.util.Map<LedgerStore, Connection> ownSessions = new java.util.IdentityHashMap<>();
    private final java.util.Map<LedgerStore, String> sessionIds = new java.util.IdentityHashMap<>();
    private static final String SESSION_ID = "CAST(session_id AS varchar(12)) + '@' + CONVERT(varchar(33), login_time, 126)";

    @Override
    protected LedgerStore storeOnItsOwnSession() {
        Connection own = connect();
        // Lane locks on Babelfish too: each such store is a new session, far below the conflicts that abort Babelfish.
        LedgerStore s = MssqlLedgerConnection.store(own, schema, MssqlLedgerConnection.DEFAULT_LOCK_TIMEOUT, true);
        ownSessions.put(s, own);
        try (Statement st = own.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT " + SESSION_ID + " FROM sys.dm_exec_sessions WHERE session_id = @@SPID")) {
            rs.next();
            sessionIds.put(s, rs.getString(1));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return s;
    }

    /**
     * Closes the store's connection; the server ends the session on its own schedule, so this returns once the
     * session (id and login time) is gone from sys.dm_exec_sessions, and with it every lock it held. Asked without
     * any lock call: on Babelfish each conflicting one leaks toward a server abort (babelfish-gaps.md).
     */
    @Override
    protected void endSession(LedgerStore s, String runKey) {
        try {
            ownSessions.get(s).close();
            try (PreparedStatement ps = connect().prepareStatement(
                    "SELECT COUNT(*) AS live FROM sys.dm_exec_sessions WHERE " + SESSION_ID + " = ?")) {
                ps.setString(1, sessionIds.get(s));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (System.nanoTime() < deadline) {
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        if (rs.getInt("live") == 0) {
                            return;
                        }
                    }
                    Thread.sleep(20);
                }
            }
            throw new AssertionError("the server kept the closed session " + sessionIds.get(s) + " for 10 s");
        } catch (SQLException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected void writeChunkReceipt(String runKey, int chunkId, String owner, long epoch, long rows) {
        try (PreparedStatement ps = connect().prepareStatement("INSERT INTO " + table("chunk_receipt")
                + " (run_key, chunk_id, epoch, owner, rows_loaded) VALUES (?, ?, ?, ?, ?)")) {
            ps.setString(1, runKey);
            ps.setInt(2, chunkId);
            ps.setLong(3, epoch);
            ps.setString(4, owner);
            ps.setLong(5, rows);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected void forgetProgressCounters(String runKey) {
        try (PreparedStatement ps = connect().prepareStatement("DELETE FROM " + table("run_progress") + " WHERE run_key = ?")) {
            ps.setString(1, runKey);
            assertThat(ps.executeUpdate()).as("the plan row").isEqualTo(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void peekOnALedgerThatWasNeverCreatedFindsNothingAndCreatesNothing() throws SQLException {
        String missing = "never_" + SCHEMAS.incrementAndGet();
        LedgerStore untouched = MssqlLedgerConnection.store(connect(), missing);

        assertThat(untouched.peek("rk-any")).isEmpty();
        try (PreparedStatement ps = connect().prepareStatement("SELECT count(*) FROM sys.schemas WHERE name = ?")) {
            ps.setString(1, missing);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).isZero();
            }
        }
    }

    @Test
    void ensureSchemaRefusesALedgerOfAnotherVersion() throws SQLException {
        try (Statement s = connect().createStatement()) {
            s.execute("INSERT INTO " + table("ledger_version") + " (version) VALUES (2)");
        }

        assertThatThrownBy(() -> store.ensureSchema()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("version 2").hasMessageContaining("ledger version 1");
    }

    /** Two first runs on an empty schema at once: the application lock serializes them and both succeed. */
    @Test
    void concurrentFirstRunsOnANewSchemaBothCreateTheSameLedger() throws Exception {
        for (int round = 0; round < 3; round++) {
            String fresh = "race_" + SCHEMAS.incrementAndGet();
            LedgerStore a = MssqlLedgerConnection.store(connect(), fresh);
            LedgerStore b = MssqlLedgerConnection.store(connect(), fresh);
            CyclicBarrier start = new CyclicBarrier(2);
            CompletableFuture<Void> first = CompletableFuture.runAsync(() -> {
                await(start);
                a.ensureSchema();
            });
            CompletableFuture<Void> second = CompletableFuture.runAsync(() -> {
                await(start);
                b.ensureSchema();
            });
            first.get(60, TimeUnit.SECONDS);
            second.get(60, TimeUnit.SECONDS);
            try (Statement s = connect().createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM "
                    + MssqlIdentifiers.quote(fresh) + ".ledger_version")) {
                rs.next();
                assertThat(rs.getInt(1)).as("one version row").isEqualTo(1);
            }
        }
    }

    @Test
    void failedTransactionLeavesTheStateConnectionInAutocommit() throws SQLException {
        create(blueprint(8));
        assertThatThrownBy(() -> create(blueprint(16))).isInstanceOf(LedgerConflictException.class);

        assertThat(stateConnection.getAutoCommit()).isTrue();
        String runKey = blueprint(8).identity().runKey();
        assertThat(store.acquireLease(runKey, "driver-a", LONG_TTL)).isPresent();
        assertThat(other.findByRunKey(runKey).orElseThrow().leaseOwner())
                .as("the lease write is visible to another connection, so it was committed").isEqualTo("driver-a");
    }

    /**
     * A chunk row held by another open transaction: the claim waits no longer than the store's lock timeout and
     * fails as transient (retry later), not forever.
     */
    @Test
    void aWriteBlockedByAnOpenTransactionFailsTransientlyWithinTheLockTimeout() throws SQLException {
        String runKey = create(blueprint(1)).runKey();
        ChunkRecord seen = store.claimable(runKey, 3, false, 1).get(0);
        LedgerStore impatient = MssqlLedgerConnection.store(connect(), schema, Duration.ofMillis(300));
        Connection holder = connect();
        holder.setAutoCommit(false);
        try (Statement s = holder.createStatement()) {
            s.executeUpdate("UPDATE " + table("chunk") + " SET attempts = attempts WHERE run_key = N'" + runKey + "'");

            long started = System.nanoTime();
            assertThatThrownBy(() -> impatient.claim(runKey, seen, "lane-a", LONG_TTL))
                    .isInstanceOfSatisfying(DatabaseFailureException.class,
                            e -> assertThat(e.isTransient()).as(e.getMessage()).isTrue());
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5000);
        } finally {
            holder.rollback();
        }
        assertThat(store.claim(runKey, seen, "lane-a", LONG_TTL)).as("free again once the holder is gone").isPresent();
    }

    @Test
    void publicationAndRollbackReceiptsAreReadFromTheirColumns() throws SQLException {
        String runKey = create(blueprint(8)).runKey();
        Instant published = Instant.parse("2025-01-02T03:04:05Z");
        try (Statement s = connect().createStatement()) {
            s.execute("INSERT INTO " + table("publication_receipt") + " (run_key, receipt_id, target_schema,"
                    + " live_table, backup_table, shadow_table, rows_published, lease_epoch, published_at) VALUES (N'"
                    + runKey + "', N'pub-1', N'analytics', N'events', N'events_bak', N'events_shd', 1234, 3,"
                    + " '2025-01-02T03:04:05')");
            s.execute("INSERT INTO " + table("rollback_receipt") + " (run_key, receipt_id, reason, lease_epoch,"
                    + " rolled_back_at) VALUES (N'" + runKey + "', N'rb-1', N'bad data', 4, '2025-01-03T00:00:00')");
        }

        assertThat(store.publicationReceipt(runKey)).contains(new PublicationReceipt(runKey, "pub-1", "analytics",
                "events", "events_bak", "events_shd", 1234, published));
        assertThat(store.rollbackReceipt(runKey)).contains(new RollbackReceipt(runKey, "rb-1", "bad data",
                Instant.parse("2025-01-03T00:00:00Z")));
    }

    /** Owners compare in binary, as PostgreSQL's text does, whatever the database's collation. */
    @Test
    void ownersThatDifferOnlyInCaseAreDifferentOwners() {
        String runKey = create(blueprint(1)).runKey();
        assertThat(store.acquireLease(runKey, "driver-a", LONG_TTL)).isPresent();
        assertThat(other.acquireLease(runKey, "DRIVER-A", LONG_TTL)).isEmpty();
        CampaignRecord stored = other.findByRunKey(runKey).orElseThrow();
        assertThat(stored.leaseOwner()).isEqualTo("driver-a");
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private String table(String name) {
        return MssqlIdentifiers.quote(schema) + "." + name;
    }

    private Connection connect() {
        try {
            Connection c = engine.connect(database);
            connections.add(c);
            return c;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
