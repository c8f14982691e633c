package io.dpone.backfill.targets.postgres.ledger;

import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkCounts;
import io.dpone.backfill.core.ledger.LedgerConflictException;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.LedgerStoreContract;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ledger contract on a real PostgreSQL server, plus what only this adapter can show: the version check, the
 * unique-violation path of a lost creation race, autocommit restored after a failed transaction, receipt columns.
 * One database for the class; each test gets its own state schema.
 */
public class PostgresLedgerStoreIT extends LedgerStoreContract {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static String database;

    private final String schema = "ledger_" + SCHEMAS.incrementAndGet();
    private final List<Connection> connections = new ArrayList<>();
    private Connection stateConnection;

    @BeforeAll
    static void createDatabase() {
        database = SharedEmbeddedPostgres.freshDatabase("ledger");
    }

    @AfterEach
    void closeConnections() throws SQLException {
        for (Connection c : connections) {
            c.close();
        }
    }

    @Override
    protected void forgetProgressCounters(String runKey) {
        try (PreparedStatement ps = connect().prepareStatement("DELETE FROM " + schema + ".run_progress WHERE run_key = ?")) {
            ps.setString(1, runKey);
            assertThat(ps.executeUpdate()).as("the plan row").isEqualTo(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void peekOnALedgerThatWasNeverCreatedFindsNothingAndCreatesNothing() throws SQLException {
        String missing = "never_" + SCHEMAS.incrementAndGet();
        LedgerStore untouched = PostgresLedgerConnection.store(connect(), missing);

        assertThat(untouched.peek("rk-any")).isEmpty();
        try (PreparedStatement ps = connect().prepareStatement("SELECT count(*) FROM pg_namespace WHERE nspname = ?")) {
            ps.setString(1, missing);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getLong(1)).isZero();
            }
        }
    }

    @Test
    void aRoleThatMayNotCreateTheLedgerGetsAPermanentMissingPrivilegeFailure() throws SQLException {
        String role = "ledger_weak_" + SCHEMAS.incrementAndGet();
        try (Statement s = connect().createStatement()) {
            s.execute("CREATE ROLE " + role + " LOGIN");
            s.execute("REVOKE CREATE ON DATABASE " + database + " FROM PUBLIC");
        }
        Connection weak = java.sql.DriverManager.getConnection(SharedEmbeddedPostgres.get().jdbcUrl(database)
                .replace("user=postgres", "user=" + role));
        connections.add(weak);

        assertThatThrownBy(() -> PostgresLedgerConnection.store(weak, "weak_" + role).ensureSchema())
                .isInstanceOfSatisfying(io.dpone.backfill.core.engine.DatabaseFailureException.class, e -> {
                    assertThat(e.isTransient()).isFalse();
                    assertThat(e.reason()).isEqualTo("MissingPrivilege");
                });
    }

    @Override
    protected LedgerStore newStore() {
        stateConnection = connect();
        return PostgresLedgerConnection.store(stateConnection, schema);
    }

    @Override
    protected LedgerStore otherStore() {
        return PostgresLedgerConnection.store(connect(), schema);
    }

    /**
     * The renewal finds the driver lock in pg_locks, which shows the 64-bit key split into two unsigned halves:
     * keys of both signs must be recognised, or half of all campaigns would lose their lease at the first renewal.
     */
    @Test
    void aClaimedLeaseRenewsWhateverTheSignOfItsDriverLockKey() throws SQLException {
        java.util.Set<Boolean> negativeKeySeen = new java.util.HashSet<>();
        PostgresCampaignStatements statements = new PostgresCampaignStatements(stateConnection, schema);
        for (int i = 0; i < 32 && negativeKeySeen.size() < 2; i++) {
            String runKey = create(blueprint("sign_" + i + "_v1", 1)).runKey();
            try (PreparedStatement ps = connect().prepareStatement("SELECT hashtextextended(?, 0) < 0")) {
                ps.setString(1, statements.driverLockName(runKey));
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    negativeKeySeen.add(rs.getBoolean(1));
                }
            }
            CampaignLease lease = ((CampaignClaim.Taken) store.claimCampaign(runKey, "driver-a", LONG_TTL)).lease();
            assertThat(store.renewLease(lease, LONG_TTL)).as("renewal of %s", runKey).isTrue();
        }
        assertThat(negativeKeySeen).as("keys of both signs were tried").containsExactlyInAnyOrder(true, false);
    }

    private final java.util.Map<LedgerStore, Integer> backendPids = new java.util.IdentityHashMap<>();

    @Override
    protected LedgerStore storeOnItsOwnSession() {
        Connection own = connect();
        LedgerStore s = PostgresLedgerConnection.store(own, schema);
        try (Statement st = own.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            backendPids.put(s, rs.getInt(1));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return s;
    }

    /** The server ends the backend, as when a driver's process or host dies; the call waits until it has exited. */
    @Override
    protected void endSession(LedgerStore s, String runKey) {
        try (PreparedStatement ps = connect().prepareStatement("SELECT pg_terminate_backend(?, 10000)")) {
            ps.setInt(1, backendPids.get(s));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getBoolean(1)).as("backend terminated").isTrue();
            }
        } catch (SQLException e) {
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

    @Test
    void ensureSchemaRefusesALedgerOfAnotherVersion() throws SQLException {
        try (Statement s = connect().createStatement()) {
            s.execute("INSERT INTO " + table("ledger_version") + " (version) VALUES (2)");
        }

        assertThatThrownBy(() -> store.ensureSchema()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("version 2").hasMessageContaining("ledger version 1");
    }

    /**
     * Forces the race deterministically: another connection has inserted the same backfill id but not committed,
     * so the store's insert waits on the unique index, then fails once the winner commits; the store must
     * answer with the winner's row, not an error.
     */
    @Test
    void createCampaignThatLosesTheInsertRaceReturnsTheWinnersCampaign() throws Exception {
        CampaignBlueprint blueprint = blueprint(8);
        Connection winner = connect();
        winner.setAutoCommit(false);
        try (PreparedStatement ps = winner.prepareStatement("INSERT INTO " + table("campaign")
                + " (run_key, backfill_id, plan_digest, config_digest, spec_json, chunk_total, phase)"
                + " VALUES (?, ?, ?, ?, '{\"winner\":true}', 8, 'Planned')")) {
            ps.setString(1, blueprint.identity().runKey());
            ps.setString(2, "events_initial_v1");
            ps.setString(3, blueprint.identity().planDigest());
            ps.setString(4, blueprint.identity().configDigest());
            ps.executeUpdate();
        }

        CompletableFuture<CampaignRecord> loser = CompletableFuture.supplyAsync(() -> create(blueprint));
        awaitLockWaiter();
        winner.commit();

        CampaignRecord result = loser.get(10, TimeUnit.SECONDS);
        assertThat(result.specJson()).isEqualTo("{\"winner\":true}");
        assertThat(result.runKey()).isEqualTo(blueprint.identity().runKey());
        assertThat(stateConnection.getAutoCommit()).isTrue();
    }

    @Test
    void failedTransactionLeavesTheStateConnectionInAutocommit() throws SQLException {
        create(blueprint(8));
        CampaignBlueprint changed = blueprint(16);
        assertThatThrownBy(() -> create(changed)).isInstanceOf(LedgerConflictException.class);

        assertThat(stateConnection.getAutoCommit()).isTrue();
        String runKey = blueprint(8).identity().runKey();
        assertThat(store.acquireLease(runKey, "driver-a", LONG_TTL)).isPresent();
        assertThat(other.findByRunKey(runKey).orElseThrow().leaseOwner())
                .as("the lease write is visible to another connection, so it was committed").isEqualTo("driver-a");
    }

    @Test
    void publicationAndRollbackReceiptsAreReadFromTheirColumns() throws SQLException {
        String runKey = create(blueprint(8)).runKey();
        Instant published = Instant.parse("2025-01-02T03:04:05Z");
        try (Statement s = connect().createStatement()) {
            s.execute("INSERT INTO " + table("publication_receipt") + " (run_key, receipt_id, target_schema,"
                    + " live_table, backup_table, shadow_table, rows_published, lease_epoch, published_at) VALUES ('"
                    + runKey + "', 'pub-1', 'analytics', 'events', 'events_bak', 'events_shd', 1234, 3,"
                    + " '2025-01-02T03:04:05Z')");
            s.execute("INSERT INTO " + table("rollback_receipt") + " (run_key, receipt_id, reason, lease_epoch,"
                    + " rolled_back_at) VALUES ('" + runKey + "', 'rb-1', 'bad data', 4, '2025-01-03T00:00:00Z')");
        }

        assertThat(store.publicationReceipt(runKey)).contains(new PublicationReceipt(runKey, "pub-1", "analytics",
                "events", "events_bak", "events_shd", 1234, published));
        assertThat(store.rollbackReceipt(runKey)).contains(new RollbackReceipt(runKey, "rb-1", "bad data",
                Instant.parse("2025-01-03T00:00:00Z")));
    }

    private void awaitLockWaiter() throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (PreparedStatement ps = connect().prepareStatement("SELECT count(*) FROM pg_stat_activity"
                + " WHERE datname = ? AND wait_event_type = 'Lock'")) {
            ps.setString(1, database);
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(20);
            }
        }
        throw new AssertionError("createCampaign never waited on the uncommitted winner");
    }

    private String table(String name) {
        return PostgresLedgerSchema.table(schema, name);
    }

    /** A current ledger takes no table lock in ensureSchema, so a driver starting never waits on (or deadlocks with) a writer. */
    @Test
    void ensureSchemaOnACurrentLedgerDoesNotWaitForATransactionWritingIt() throws SQLException {
        String runKey = create(blueprint(4)).runKey();
        try (Connection writer = connect(); Statement w = writer.createStatement()) {
            writer.setAutoCommit(false);
            w.execute("UPDATE " + table("chunk") + " SET attempts = attempts WHERE run_key = '" + runKey + "'");
            try (Connection starter = connect(); Statement s = starter.createStatement()) {
                s.execute("SET lock_timeout = '2s'");
                PostgresLedgerConnection.store(starter, schema).ensureSchema();
            } finally {
                writer.rollback();
            }
        }
    }

    /**
     * A driver that found the ledger incomplete and then waited for another driver's first run of the script checks
     * again once it holds the lock: the ledger is current by then, so it takes none of the script's table locks while
     * a third session writes the ledger (without the second check: lock timeout here, a deadlock between drivers).
     */
    @Test
    void ensureSchemaAfterWaitingForAnotherFirstRunTakesNoTableLock() throws Exception {
        String runKey = create(blueprint(4)).runKey();
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("ALTER TABLE " + table("campaign") + " DROP COLUMN row_encoding");
        }
        try (Connection writer = connect(); Statement w = writer.createStatement();
             Connection first = connect(); Statement f = first.createStatement()) {
            writer.setAutoCommit(false);
            w.execute("UPDATE " + table("chunk") + " SET attempts = attempts WHERE run_key = '" + runKey + "'");
            first.setAutoCommit(false);
            f.execute("SELECT pg_advisory_xact_lock(hashtextextended('dpone-backfill-ledger:' || "
                    + PostgresLedgerSchema.literal(schema) + ", 0))");
            f.execute("ALTER TABLE " + table("campaign") + " ADD COLUMN row_encoding text");
            Connection starter = connect();
            try (Statement st = starter.createStatement()) {
                st.execute("SET lock_timeout = '5s'");
            }
            CompletableFuture<Void> second = CompletableFuture.runAsync(() -> PostgresLedgerConnection.store(starter, schema).ensureSchema());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (countWaitingForAdvisoryLock(f) == 0) {
                assertThat(System.nanoTime()).as("the second driver waits for the first one's lock").isLessThan(deadline);
                Thread.sleep(50);
            }
            first.commit();
            try {
                second.get(20, TimeUnit.SECONDS);
            } finally {
                writer.rollback();
            }
        }
    }

    private static long countWaitingForAdvisoryLock(Statement s) throws SQLException {
        try (var rs = s.executeQuery("SELECT count(*) FROM pg_catalog.pg_locks WHERE locktype = 'advisory' AND NOT granted")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private Connection connect() {
        try {
            Connection c = SharedEmbeddedPostgres.get().connect(database);
            connections.add(c);
            return c;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aClaimReadsTheSameFewChunkRowsWhateverHowManyOfA16384ChunkPlanAreCommitted() throws Exception {
        // Sub-linear in chunks (issue 11): counted in rows the plan reads (EXPLAIN ANALYZE), not timed.
        CampaignBlueprint blueprint = blueprint("scale_claims", 16384);
        String runKey = store.createCampaign(blueprint, specJson(blueprint)).runKey();
        PostgresChunkStatements statements = new PostgresChunkStatements(stateConnection, schema);
        try (Statement s = stateConnection.createStatement()) {
            s.execute("UPDATE " + schema + ".chunk SET state = 'committed' WHERE run_key = '" + runKey + "' AND chunk_id < 16000");
            s.execute("UPDATE " + schema + ".chunk SET state = 'running', owner = 'lane-0', lease_expires = now() + interval '1 minute'"
                    + " WHERE run_key = '" + runKey + "' AND chunk_id BETWEEN 16000 AND 16003");
            s.execute("UPDATE " + schema + ".chunk SET state = 'failed', attempts = 3 WHERE run_key = '" + runKey + "' AND chunk_id = 16004");
            s.execute("ANALYZE " + schema + ".chunk");
        }
        assertThat(statements.claimable(runKey, 3, true, 8)).extracting(c -> c.chunkId())
                .containsExactly(16005, 16006, 16007, 16008, 16009, 16010, 16011, 16012);

        long rowsRead = chunkRowsRead(statements.claimableSql(), statements.claimableParameters(runKey, 3, true, 8));
        // 8 pending, 4 running, 1 failed: the 16,000 committed chunks below them are never read.
        assertThat(rowsRead).as("chunk rows the claim read").isLessThanOrEqualTo(8 + 4 + 1);
    }

    @Test
    void progressReadsOnlyTheOpenAndRecentChunksOfA16384ChunkPlanWhateverHowManyAreCommitted() throws Exception {
        // Sub-linear in chunks (issue 11, ADR 0027): counted in rows the plan reads (EXPLAIN ANALYZE), not timed.
        CampaignBlueprint blueprint = blueprint("scale_progress", 16384);
        String runKey = store.createCampaign(blueprint, specJson(blueprint)).runKey();
        PostgresChunkStatements statements = new PostgresChunkStatements(stateConnection, schema);
        try (Statement s = stateConnection.createStatement()) {
            // 16,000 chunks committed an hour ago and counted by their lane, as their commits would have.
            s.execute("UPDATE " + schema + ".chunk SET state = 'committed', rows_extracted = 10, rows_loaded = 10,"
                    + " started_at = now() - interval '2 hours', finished_at = now() - interval '1 hour'"
                    + " WHERE run_key = '" + runKey + "' AND chunk_id < 16000");
            s.execute("INSERT INTO " + schema + ".run_progress (run_key, owner, chunks, rows_extracted, rows_loaded)"
                    + " VALUES ('" + runKey + "', 'lane-0', 16000, 160000, 160000)");
            s.execute("UPDATE " + schema + ".chunk SET state = 'running', owner = 'lane-1', lease_expires = now() + interval '1 minute',"
                    + " started_at = now() WHERE run_key = '" + runKey + "' AND chunk_id BETWEEN 16000 AND 16003");
            s.execute("UPDATE " + schema + ".chunk SET state = 'failed', attempts = 3, finished_at = now()"
                    + " WHERE run_key = '" + runKey + "' AND chunk_id = 16004");
            s.execute("ANALYZE " + schema + ".chunk");
        }
        // Two chunks committed just now, through the ledger's own commit statement.
        for (int id : new int[] {16005, 16006}) {
            ChunkClaim claim = store.claim(runKey, store.chunks(runKey, id, 1).get(0), "lane-1", LONG_TTL).orElseThrow();
            assertThat(statements.markChunkCommitted(claim, 7, 7)).isTrue();
        }

        ChunkCounts counts = store.counts(runKey, 3);
        assertThat(counts.total()).isEqualTo(16384);
        assertThat(counts.committed()).isEqualTo(16002);
        assertThat(counts.running()).isEqualTo(4);
        assertThat(counts.failed()).isEqualTo(1);
        assertThat(counts.failedExhausted()).isEqualTo(1);
        assertThat(counts.pending()).isEqualTo(16384 - 16002 - 4 - 1);
        assertThat(counts.rowsLoaded()).isEqualTo(160014);
        assertThat(counts.committedLastMinuteRows()).isEqualTo(14);
        assertThat(counts.secondsSinceFirstStart()).isBetween(7190.0, 7300.0);

        long rowsRead = chunkRowsRead(statements.countedSql(), new Object[] {runKey, runKey, runKey, runKey, 3});
        // 4 running and 1 failed; the 3 that finished in the last minute (2 committed, the failed one again); the
        // first start from the head of its index. None of the 16,000 committed an hour ago.
        assertThat(rowsRead).as("chunk rows the progress read").isLessThanOrEqualTo(4 + 1 + 3 + 1);
    }

    /** Rows the plan's scans of the chunk table produced or filtered out, from EXPLAIN (ANALYZE, FORMAT JSON). */
    private long chunkRowsRead(String sql, Object[] parameters) throws Exception {
        try (PreparedStatement ps = stateConnection.prepareStatement("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                com.fasterxml.jackson.databind.JsonNode plan = new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(rs.getString(1)).get(0).get("Plan");
                return rowsRead(plan);
            }
        }
    }

    private static long rowsRead(com.fasterxml.jackson.databind.JsonNode node) {
        long rows = 0;
        if ("chunk".equals(node.path("Relation Name").asText())) {
            rows += (node.path("Actual Rows").asLong() + node.path("Rows Removed by Filter").asLong()
                    + node.path("Rows Removed by Index Recheck").asLong()) * Math.max(1, node.path("Actual Loops").asLong());
        }
        for (com.fasterxml.jackson.databind.JsonNode child : node.path("Plans")) {
            rows += rowsRead(child);
        }
        return rows;
    }
}
