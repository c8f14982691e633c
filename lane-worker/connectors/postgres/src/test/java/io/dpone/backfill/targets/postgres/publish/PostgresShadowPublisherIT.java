package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;
import io.dpone.backfill.core.publish.ArtifactOwnershipException;
import io.dpone.backfill.core.publish.LiveTargetBaseline;
import io.dpone.backfill.core.publish.ShadowPublisher;
import io.dpone.backfill.core.publish.ShadowPublisherContract;
import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.core.publish.ValidationResult;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresSqlException;
import io.dpone.backfill.targets.postgres.ledger.PostgresLedgerSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The shadow publisher contract on a real PostgreSQL server, plus what only PostgreSQL has: LIKE's copy of
 * defaults and identity, catalog-exact index and constraint definitions, grants, ownership, sequences, comments,
 * the advisory lock and lock_timeout. Each test gets its own schema (and state schema) in one database.
 */
public class PostgresShadowPublisherIT extends ShadowPublisherContract {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final String LIVE = "orders";
    private static final String USER_COMMENT = "orders of the shop";
    private static String database;
    private static Connection admin;
    private static String ownerRole;
    private static String readerRole;
    private static String writerRole;

    private String schema;
    private String stateSchema;
    private String runKey;
    private ArtifactNames names;
    private Connection target;
    private ShadowPublisher publisher;

    @BeforeAll
    static void database() throws SQLException {
        database = SharedEmbeddedPostgres.freshDatabase("shadow");
        admin = SharedEmbeddedPostgres.get().connect(database);
        String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
        ownerRole = "bf_owner_" + suffix;
        readerRole = "bf_reader_" + suffix;
        writerRole = "bf_writer_" + suffix;
        for (String role : List.of(ownerRole, readerRole, writerRole)) {
            exec("CREATE ROLE " + q(role) + " NOLOGIN");
        }
    }

    @AfterAll
    static void close() throws SQLException {
        admin.close();
    }

    @BeforeEach
    void schema() throws SQLException {
        int n = SEQUENCE.incrementAndGet();
        schema = "t" + n;
        stateSchema = "st" + n;
        runKey = "run-" + n;
        names = new ArtifactNames(schema, LIVE + "__bf_shadow", LIVE + "__bf_backup");
        exec("CREATE SCHEMA " + q(schema));
        PostgresLedgerSchema.apply(admin, stateSchema);
        target = SharedEmbeddedPostgres.get().connect(database);
        publisher = PostgresShadowPublishers.of(target, stateSchema, Duration.ofSeconds(5), FaultPoints.NONE);
    }

    @AfterEach
    void disconnect() throws SQLException {
        target.close();
    }

    // ---- contract fixture ----

    @Override
    protected ShadowPublisher publisher() {
        return publisher;
    }

    @Override
    protected ShadowPublisher publisherWith(io.dpone.backfill.core.fault.FaultPoints faults) {
        return PostgresShadowPublishers.of(target, stateSchema, Duration.ofSeconds(5), faults);
    }

    @Override
    protected ArtifactNames names() {
        return names;
    }

    @Override
    protected String liveTable() {
        return LIVE;
    }

    @Override
    protected String runKey() {
        return runKey;
    }

    @Override
    protected void createLiveTable(long... ids) {
        run("CREATE TABLE " + t(LIVE) + " (id bigint PRIMARY KEY, code text NOT NULL DEFAULT 'none' UNIQUE, note text)");
        insertRows(LIVE, ids);
    }

    @Override
    protected void insertRows(String table, long... ids) {
        for (long id : ids) {
            run("INSERT INTO " + t(table) + " (id, code) VALUES (" + id + ", 'c" + id + "')");
        }
    }

    @Override
    protected void addNullableColumn(String table, String column) {
        run("ALTER TABLE " + t(table) + " ADD COLUMN " + PostgresIdentifiers.quote(column) + " text");
    }

    @Override
    protected void updateNote(String table, long id, String note) {
        run("UPDATE " + t(table) + " SET note = '" + note.replace("'", "''") + "' WHERE id = " + id);
    }

    @Override
    protected List<Long> ids(String table) {
        List<Long> ids = new ArrayList<>();
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM " + t(table) + " ORDER BY id")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return ids;
    }

    @Override
    protected boolean tableExists(String table) {
        return !strings("SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " WHERE n.nspname = ? AND c.relname = ?", schema, table).isEmpty();
    }

    @Override
    protected Set<String> uniqueIndexNames(String table) {
        return new TreeSet<>(strings("SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                + " WHERE i.indrelid = pg_catalog.to_regclass(?) AND i.indisunique", qualified(table)));
    }

    @Override
    protected void createArtifactTable(String table, String ownerRunKey) {
        run("CREATE TABLE " + t(table) + " (id bigint)");
        run("INSERT INTO " + t(table) + " VALUES (1)");
        if (ownerRunKey != null) {
            comment("TABLE " + t(table), PostgresShadowStamp.shadow(ownerRunKey));
        }
    }

    @Override
    protected void createKeyTable(String table, Integer[][] rows) {
        run("CREATE TABLE " + t(table) + " (k1 integer, k2 integer)");
        try (PreparedStatement ps = admin.prepareStatement("INSERT INTO " + t(table) + " VALUES (?, ?)")) {
            for (Integer[] row : rows) {
                ps.setObject(1, row[0]);
                ps.setObject(2, row[1]);
                ps.addBatch();
            }
            ps.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected void startCampaign(String owner, long epoch, int expiresInSeconds) {
        try (PreparedStatement ps = admin.prepareStatement("INSERT INTO " + PostgresLedgerSchema.table(stateSchema, "campaign")
                + " (run_key, backfill_id, plan_digest, config_digest, spec_json, chunk_total, phase, lease_owner,"
                + " lease_epoch, lease_expires) VALUES (?, ?, 'plan', 'config', '{}', 1, 'Validating', ?, ?,"
                + " now() + make_interval(secs => ?))")) {
            ps.setString(1, runKey);
            ps.setString(2, "backfill-" + runKey);
            ps.setString(3, owner);
            ps.setLong(4, epoch);
            ps.setInt(5, expiresInSeconds);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- PostgreSQL specifics ----

    @Test
    void shadowCopiesColumnsDefaultsIdentityAndCommentsButNoIndexOrConstraint() {
        createRichLiveTable();

        publisher.prepareShadow(runKey, names, LIVE);

        assertThat(publisher.shape(schema, names.shadowTable())).isEqualTo(publisher.shape(schema, LIVE));
        assertThat(columnFacts(names.shadowTable())).isEqualTo(columnFacts(LIVE));
        assertThat(columnFacts(names.shadowTable())).contains("id:a::", "code:-:'none'::character varying:order code");
        assertThat(strings("SELECT 1 FROM pg_index WHERE indrelid = pg_catalog.to_regclass(?)", qualified(names.shadowTable())))
                .as("no index at all before loading").isEmpty();
        assertThat(strings("SELECT conname FROM pg_constraint WHERE conrelid = pg_catalog.to_regclass(?) AND contype <> 'n'",
                qualified(names.shadowTable()))).as("no key, unique, check or foreign key before loading").isEmpty();
        assertThat(tableComment(names.shadowTable())).isEqualTo("dpone-backfill run_key=" + runKey);
    }

    @Test
    void deferredIndexesReproduceEveryLiveDefinitionOnTheShadowAndAreIdempotent() {
        createRichLiveTable();
        publisher.prepareShadow(runKey, names, LIVE);
        run("INSERT INTO " + t(names.shadowTable()) + " (id, code, orders, customer_id) OVERRIDING SYSTEM VALUE VALUES (1, 'a', 'x', 1), (2, 'b', NULL, 2)");

        publisher.buildDeferredIndexes(runKey, names, LIVE);

        Map<String, String> live = definitions(LIVE);
        Map<String, String> shadow = definitions(names.shadowTable());
        assertThat(live).hasSize(8);
        Map<String, String> expected = new HashMap<>();
        live.forEach((name, definition) -> expected.put(CarriedObjectNames.onShadow(names, name), definition
                .replace("REFERENCES " + schema + ".orders(", "REFERENCES " + schema + ".orders__bf_shadow(")));
        assertThat(shadow).isEqualTo(expected);
        assertThat(strings("SELECT conname FROM pg_constraint WHERE conrelid = pg_catalog.to_regclass(?) AND contype = 'f'"
                + " AND NOT convalidated", qualified(names.shadowTable()))).as("foreign keys validated").isEmpty();
        assertThat(strings("SELECT obj_description(pg_catalog.to_regclass(?), 'pg_class')",
                schema + "." + CarriedObjectNames.onShadow(names, "orders_orders_idx"))).containsExactly("idx comment");

        publisher.buildDeferredIndexes(runKey, names, LIVE);
        assertThat(definitions(names.shadowTable())).isEqualTo(shadow);
        assertThatThrownBy(() -> run("INSERT INTO " + t(names.shadowTable()) + " (id, code, parent_id) OVERRIDING SYSTEM VALUE VALUES (3, 'c', 999)"))
                .as("the self-referencing foreign key points at the shadow itself").hasMessageContaining("parent");
    }

    @Test
    void publishGivesTheShadowTheLiveOwnerAndExactlyTheLiveGrants() {
        loadedShadow();
        run("ALTER TABLE " + t(LIVE) + " OWNER TO " + q(ownerRole));
        run("GRANT SELECT ON " + t(LIVE) + " TO " + q(readerRole));
        run("GRANT INSERT, UPDATE ON " + t(LIVE) + " TO " + q(writerRole) + " WITH GRANT OPTION");
        run("GRANT SELECT ON " + t(LIVE) + " TO PUBLIC");
        run("GRANT UPDATE (note) ON " + t(LIVE) + " TO " + q(readerRole));
        run("GRANT DELETE ON " + t(names.shadowTable()) + " TO " + q(readerRole)); // stray: must not survive
        Set<String> liveAcl = acl(LIVE);
        startCampaign(OWNER, EPOCH, 60);

        publisher.publish(lease(), names, LIVE, 3, baseline(), shadowPrint());

        assertThat(strings("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE oid = pg_catalog.to_regclass(?)",
                qualified(LIVE))).containsExactly(ownerRole);
        assertThat(acl(LIVE)).isEqualTo(liveAcl).isEqualTo(acl(names.backupTable()));
        assertThat(liveAcl).anyMatch(e -> e.startsWith("note:" + readerRole + ":UPDATE"));
        assertThat(strings("SELECT has_table_privilege(?, pg_catalog.to_regclass(?), 'DELETE')::text", readerRole,
                qualified(LIVE))).containsExactly("false");
    }

    @Test
    void theShadowLoadsWithAutovacuumOffAndIsPublishedWithExactlyTheLiveTablesStorageParameters() {
        createLiveTable(1, 2);
        run("ALTER TABLE " + t(LIVE) + " SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.01,"
                + " toast.autovacuum_vacuum_cost_delay = 5)");
        List<String> liveOptions = storageParameters(LIVE);
        assertThat(liveOptions).containsExactly("autovacuum_vacuum_scale_factor=0.01", "fillfactor=70",
                "toast.autovacuum_vacuum_cost_delay=5");

        publisher.prepareShadow(runKey, names, LIVE);
        assertThat(storageParameters(names.shadowTable())).as("no vacuum races the lanes while the shadow loads")
                .containsExactly("autovacuum_enabled=off", "toast.autovacuum_enabled=off");
        insertRows(names.shadowTable(), 10, 11, 12);
        publisher.buildDeferredIndexes(runKey, names, LIVE);
        startCampaign(OWNER, EPOCH, 60);

        publisher.publish(lease(), names, LIVE, 3, baseline(), shadowPrint());

        assertThat(storageParameters(LIVE)).as("the published table is tuned like the table it replaced")
                .isEqualTo(liveOptions);
        assertThat(storageParameters(names.backupTable())).isEqualTo(liveOptions);
    }

    @Test
    void aShadowWithoutTheLiveTablesParametersIsPublishedWithNone() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);

        publisher.publish(lease(), names, LIVE, 3, baseline(), shadowPrint());

        assertThat(storageParameters(LIVE)).as("autovacuum is on again on the published table").isEmpty();
    }

    @Test
    void buildingTheDeferredIndexesLeavesTheShadowAnalyzedForItsFirstQueries() {
        createLiveTable(1, 2);
        publisher.prepareShadow(runKey, names, LIVE);
        insertRows(names.shadowTable(), 10, 11, 12);
        assertThat(single("SELECT count(*)::text FROM pg_stats WHERE schemaname = ? AND tablename = ?", schema,
                names.shadowTable())).isEqualTo("0");

        publisher.buildDeferredIndexes(runKey, names, LIVE);

        assertThat(single("SELECT count(*)::text FROM pg_stats WHERE schemaname = ? AND tablename = ?", schema,
                names.shadowTable())).as("a statistics row per column").isEqualTo("3");
        assertThat(single("SELECT reltuples::bigint::text FROM pg_class WHERE oid = pg_catalog.to_regclass(?)",
                qualified(names.shadowTable()))).isEqualTo("3");
    }

    @Test
    void publishContinuesTheIdentitySequencePastTheLoadedRowsAndKeepsItsName() {
        createRichLiveTable();
        run("INSERT INTO " + t(LIVE) + " (code) VALUES ('a'), ('b'), ('c')"); // identity issues 1..3
        String sequence = single("SELECT pg_get_serial_sequence(?, 'id')", qualified(LIVE));
        publisher.prepareShadow(runKey, names, LIVE);
        run("INSERT INTO " + t(names.shadowTable()) + " (id, code) OVERRIDING SYSTEM VALUE"
                + " SELECT g, 'k' || g FROM generate_series(1, 10) g");
        publisher.buildDeferredIndexes(runKey, names, LIVE);
        startCampaign(OWNER, EPOCH, 60);

        publisher.publish(lease(), names, LIVE, 10, baseline(), shadowPrint());

        assertThat(single("SELECT pg_get_serial_sequence(?, 'id')", qualified(LIVE))).isEqualTo(sequence);
        assertThat(single("INSERT INTO " + t(LIVE) + " (code) VALUES (?) RETURNING id::text", "new")).isEqualTo("11");
        assertThat(single("SELECT pg_get_serial_sequence(?, 'id')", qualified(names.backupTable())))
                .isEqualTo(schema + "." + CarriedObjectNames.onBackup(names, "orders_id_seq"));
    }

    @Test
    void publishMovesASerialSequenceForwardNeverBackAndHandsItsOwnershipToThePublishedTable() {
        run("CREATE TABLE " + t(LIVE) + " (id serial PRIMARY KEY, code text NOT NULL)");
        run("INSERT INTO " + t(LIVE) + " (code) SELECT 'k' || g FROM generate_series(1, 5) g");
        run("SELECT setval(pg_get_serial_sequence('" + schema + ".orders', 'id'), 40)"); // issued beyond the rows
        publisher.prepareShadow(runKey, names, LIVE);
        run("INSERT INTO " + t(names.shadowTable()) + " (id, code) SELECT g, 'k' || g FROM generate_series(1, 30) g");
        publisher.buildDeferredIndexes(runKey, names, LIVE);
        startCampaign(OWNER, EPOCH, 60);

        publisher.publish(lease(), names, LIVE, 30, baseline(), shadowPrint());

        assertThat(single("INSERT INTO " + t(LIVE) + " (code) VALUES (?) RETURNING id::text", "n1")).isEqualTo("41");
        assertThat(single("SELECT pg_get_serial_sequence(?, 'id')", qualified(LIVE))).isEqualTo(schema + ".orders_id_seq");
        run("DROP TABLE " + t(names.backupTable()));
        assertThat(single("INSERT INTO " + t(LIVE) + " (code) VALUES (?) RETURNING id::text", "n2"))
                .as("dropping the backup must not take the sequence with it").isEqualTo("42");
    }

    @Test
    void publishAndRollbackCarryIndexConstraintNamesAndTheTableComment() {
        createRichLiveTable();
        run("INSERT INTO " + t(LIVE) + " (code, customer_id) VALUES ('old', 1)");
        Set<String> original = objectNames(LIVE);
        publisher.prepareShadow(runKey, names, LIVE);
        run("INSERT INTO " + t(names.shadowTable()) + " (id, code, customer_id) OVERRIDING SYSTEM VALUE VALUES (5, 'new', 2)");
        publisher.buildDeferredIndexes(runKey, names, LIVE);
        startCampaign(OWNER, EPOCH, 60);

        publisher.publish(lease(), names, LIVE, 1, baseline(), shadowPrint());

        assertThat(objectNames(LIVE)).isEqualTo(original);
        assertThat(objectNames(names.backupTable())).isEqualTo(original.stream()
                .map(n -> CarriedObjectNames.onBackup(names, n)).collect(Collectors.toCollection(TreeSet::new)));
        assertThat(tableComment(LIVE)).isEqualTo("dpone-backfill published run_key=" + runKey + "\n" + USER_COMMENT);
        assertThat(tableComment(names.backupTable())).isEqualTo("dpone-backfill backup run_key=" + runKey + "\n" + USER_COMMENT);
        assertThat(single("SELECT col_description(pg_catalog.to_regclass(?), 2)", qualified(LIVE))).isEqualTo("order code");

        publisher.rollback(lease(), names, LIVE, "operator asked", false);

        assertThat(single("SELECT code FROM " + t(LIVE) + " WHERE ? = 'x'", "x")).isEqualTo("old");
        assertThat(objectNames(LIVE)).isEqualTo(original);
        assertThat(objectNames(names.shadowTable())).isEqualTo(original.stream()
                .map(n -> CarriedObjectNames.onShadow(names, n)).collect(Collectors.toCollection(TreeSet::new)));
        assertThat(tableComment(LIVE)).isEqualTo(USER_COMMENT);
        assertThat(tableComment(names.shadowTable())).isEqualTo("dpone-backfill run_key=" + runKey);
        assertThat(single("SELECT pg_get_serial_sequence(?, 'id')", qualified(LIVE))).isEqualTo(schema + ".orders_id_seq");
    }

    @Test
    void publishRefusesAShadowWithoutItsDeferredIndexes() {
        createLiveTable(1);
        publisher.prepareShadow(runKey, names, LIVE);
        insertRows(names.shadowTable(), 5);
        startCampaign(OWNER, EPOCH, 60);
        TargetState before = state();

        assertThatThrownBy(() -> publisher.publish(lease(), names, LIVE, 1, baseline(), shadowPrint()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("deferred indexes")
                .hasMessageContaining("orders_pkey");
        assertThat(state()).isEqualTo(before);
        assertThat(receipts()).isZero();
    }

    @Test
    @Timeout(30) // without lock_timeout the swap would wait for the reader forever
    void publishGivesUpAfterTheLockTimeoutWhileTheLiveTableIsBusyAndSucceedsLater() throws SQLException {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        ShadowPublisher impatient = PostgresShadowPublishers.of(target, stateSchema, Duration.ofMillis(200), FaultPoints.NONE);
        try (Connection reader = SharedEmbeddedPostgres.get().connect(database)) {
            reader.setAutoCommit(false);
            try (Statement s = reader.createStatement()) {
                s.executeQuery("SELECT count(*) FROM " + t(LIVE)).close(); // holds ACCESS SHARE until rollback
            }
            long started = System.nanoTime();
            assertThatThrownBy(() -> impatient.publish(lease(), names, LIVE, 3, baseline(), shadowPrint()))
                    .isInstanceOfSatisfying(PostgresSqlException.class, e -> {
                        assertThat(e.sqlState()).isEqualTo("55P03");
                        assertThat(e.isTransient()).isTrue();
                    });
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
            assertThat(ids(LIVE)).containsExactly(1L, 2L);
            assertThat(receipts()).isZero();
            reader.rollback();
        }
        assertThat(impatient.publish(lease(), names, LIVE, 3, baseline(), shadowPrint()).rows()).isEqualTo(3);
        assertThat(ids(LIVE)).containsExactly(10L, 11L, 12L);
    }

    /**
     * An autovacuum of the freshly loaded shadow holds SHARE UPDATE EXCLUSIVE on it and ends by updating the
     * shadow's pg_class row in place, which waits for any open transaction that changed that row. A swap that
     * granted on the shadow (a pg_class change) before taking its exclusive lock deadlocked with it (40P01, seen on
     * CI). The swap must wait for the shadow's lock with the shadow's catalog row untouched.
     */
    @Test
    @Timeout(30)
    void publishLocksTheShadowBeforeChangingItsCatalogRowSoAVacuumOfTheShadowCannotDeadlockIt() throws Exception {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        String shadow = schema + "." + names.shadowTable();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection vacuum = SharedEmbeddedPostgres.get().connect(database)) {
            vacuum.setAutoCommit(false);
            try (Statement s = vacuum.createStatement()) {
                s.execute("LOCK TABLE " + t(names.shadowTable()) + " IN SHARE UPDATE EXCLUSIVE MODE");
            }
            LiveTargetBaseline baseline = baseline();
            TableFingerprint print = shadowPrint();
            Future<PublicationReceipt> publication = pool.submit(() -> publisher.publish(lease(), names, LIVE, 3, baseline, print));
            String waiting = "SELECT count(*) FROM pg_locks WHERE relation = pg_catalog.to_regclass('" + shadow + "') AND NOT granted";
            for (int i = 0; Long.parseLong(strings(waiting).get(0)) == 0; i++) {
                assertThat(publication).as("the swap must wait for the shadow's lock").isNotDone();
                assertThat(i).as("the swap never waited for the shadow's lock").isLessThan(500);
                Thread.sleep(20);
            }
            try (Statement s = vacuum.createStatement()) {
                // What the vacuum's in-place update waits for; NOWAIT fails at once if the swap changed the row.
                s.executeQuery("SELECT 1 FROM pg_catalog.pg_class WHERE oid = pg_catalog.to_regclass('" + shadow
                        + "') FOR UPDATE NOWAIT").close();
            }
            vacuum.rollback();
            assertThat(publication.get().rows()).isEqualTo(3);
        } finally {
            pool.shutdownNow();
        }
        assertThat(ids(LIVE)).containsExactly(10L, 11L, 12L);
    }

    /**
     * The swap proves its lease last (ADR 0024): a driver deposed while its swap waits, past the lease read at its
     * start, is refused by the fence just before the receipt, and everything the swap did is rolled back with it.
     */
    @Test
    @Timeout(30)
    void aDriverDeposedWhileItsSwapWaitsIsRefusedByTheFenceAndTheSwapIsRolledBack() throws Exception {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        TargetState before = state();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection writer = SharedEmbeddedPostgres.get().connect(database)) {
            writer.setAutoCommit(false);
            try (Statement s = writer.createStatement()) {
                s.execute("LOCK TABLE " + t(LIVE) + " IN ROW EXCLUSIVE MODE"); // an in-flight writer of the live table
            }
            LiveTargetBaseline baseline = baseline();
            TableFingerprint print = shadowPrint();
            Future<PublicationReceipt> publication = pool.submit(() -> publisher.publish(lease(), names, LIVE, 3, baseline, print));
            String waiting = "SELECT count(*) FROM pg_locks WHERE relation = pg_catalog.to_regclass('" + schema + "." + LIVE
                    + "') AND NOT granted";
            for (int i = 0; Long.parseLong(strings(waiting).get(0)) == 0; i++) {
                assertThat(publication).as("the swap must wait for the live table's writer").isNotDone();
                assertThat(i).as("the swap never waited for the live table's writer").isLessThan(200);
                Thread.sleep(20);
            }
            // Past its lease read, waiting for the writer: another driver takes the campaign over.
            exec("UPDATE " + PostgresLedgerSchema.table(stateSchema, "campaign") + " SET lease_owner = 'driver-b',"
                    + " lease_epoch = lease_epoch + 1 WHERE run_key = '" + runKey + "'");
            writer.rollback();
            assertThatThrownBy(publication::get).cause().isInstanceOf(LeaseLostException.class)
                    .hasMessageContaining("during the swap").hasMessageContaining("rolled back");
        } finally {
            pool.shutdownNow();
        }
        assertThat(state()).isEqualTo(before);
        assertThat(receipts()).isZero();
    }

    /** Publication receipts written by earlier builds hold this form: a rollback compares against it. */
    @Test
    void theFingerprintIsTheExactSumEarlierBuildsStoredInTheirReceipts() {
        createLiveTable(1, 2, 3, 40, 500, 6000);
        String earlier = strings("SELECT count(*) || ':' || coalesce(sum(pg_catalog.hashtextextended(t::text, 0)::numeric), 0)::text"
                + " FROM " + t(LIVE) + " AS t").get(0);
        assertThat(publisher.fingerprint(schema, LIVE).encoded()).isEqualTo(earlier);
    }

    @Test
    void concurrentPublishesSwapOnceAndReturnTheSameReceipt() throws Exception {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection second = SharedEmbeddedPostgres.get().connect(database)) {
            ShadowPublisher other = PostgresShadowPublishers.of(second, stateSchema, Duration.ofSeconds(5), FaultPoints.NONE);
            LiveTargetBaseline baseline = baseline();
            TableFingerprint shadow = shadowPrint();
            Future<PublicationReceipt> a = pool.submit(() -> publisher.publish(lease(), names, LIVE, 3, baseline, shadow));
            Future<PublicationReceipt> b = pool.submit(() -> other.publish(lease(), names, LIVE, 3, baseline, shadow));
            assertThat(a.get()).isEqualTo(b.get());
        } finally {
            pool.shutdownNow();
        }
        assertThat(ids(LIVE)).containsExactly(10L, 11L, 12L);
        assertThat(ids(names.backupTable())).containsExactly(1L, 2L);
        assertThat(receipts()).isEqualTo(1);
    }

    @Test
    void rollbackFailsClosedWhenTheLiveTableNoLongerCarriesThePublishedStamp() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        publisher.publish(lease(), names, LIVE, 3, baseline(), shadowPrint());
        comment("TABLE " + t(LIVE), "someone re-created me");
        TargetState before = state();

        assertThatThrownBy(() -> publisher.rollback(lease(), names, LIVE, "x", false))
                .isInstanceOf(ArtifactOwnershipException.class)
                .hasMessageContaining(LIVE);
        assertThat(state()).isEqualTo(before);
    }

    @Test
    void preparingAndBuildingAfterPublicationChangeNothing() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        publisher.publish(lease(), names, LIVE, 3, baseline(), shadowPrint());
        TargetState after = state();

        publisher.prepareShadow(runKey, names, LIVE);
        publisher.buildDeferredIndexes(runKey, names, LIVE);

        assertThat(tableExists(names.shadowTable())).isFalse();
        assertThat(state()).isEqualTo(after);
    }

    @Test
    void validateRulesDuplicatesOutByAUniqueIndexOnTheKeyOrOnSomeOfItsColumns() {
        createKeyTable("unique_k1", new Integer[][]{{1, 1}, {2, 1}, {3, null}});
        run("CREATE UNIQUE INDEX unique_k1_idx ON " + t("unique_k1") + " (k1) INCLUDE (k2)");

        assertThat(publisher.validate(schema, "unique_k1", List.of("k1"), 3))
                .isEqualTo(new ValidationResult(3, 3, 0, 0, "unique_k1_idx"));
        assertThat(publisher.validate(schema, "unique_k1", List.of("k2", "k1"), 3))
                .as("unique on some of the key's columns is unique on all; NULL keys are still counted")
                .isEqualTo(new ValidationResult(3, 3, 1, 0, "unique_k1_idx"));
        assertThat(publisher.validate(schema, "unique_k1", List.of("k2"), 3))
                .as("an index on another column proves nothing about this key: counted")
                .isEqualTo(new ValidationResult(3, 3, 1, 1, null));
    }

    @Test
    void aPartialAnExpressionOrAnotherCollationsUniqueIndexLeavesTheDuplicatesToBeCounted() {
        run("CREATE TABLE " + t("texts") + " (k text, n integer)");
        run("INSERT INTO " + t("texts") + " VALUES ('a', 1), ('a', 2), ('B', 3)");
        run("CREATE UNIQUE INDEX texts_partial ON " + t("texts") + " (k) WHERE n > 1");
        run("CREATE UNIQUE INDEX texts_expression ON " + t("texts") + " ((k || n::text))");
        run("CREATE TABLE " + t("texts_c") + " (k text)");
        run("INSERT INTO " + t("texts_c") + " VALUES ('a'), ('b')");
        run("CREATE UNIQUE INDEX texts_c_collation ON " + t("texts_c") + " (k COLLATE \"POSIX\")");

        assertThat(publisher.validate(schema, "texts", List.of("k"), 3))
                .isEqualTo(new ValidationResult(3, 3, 0, 1, null));
        assertThat(publisher.validate(schema, "texts_c", List.of("k"), 2))
                .as("its equality may not be the column's").isEqualTo(new ValidationResult(2, 2, 0, 0, null));
    }

    @Test
    void validateRefusesAMissingTable() {
        assertThatThrownBy(() -> publisher.validate(schema, "nothing_here", List.of("id"), 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("nothing_here");
    }

    @Test
    void aConnectionInsideATransactionIsRefusedRatherThanCommitted() throws SQLException {
        createLiveTable(1);
        target.setAutoCommit(false);
        assertThatThrownBy(() -> publisher.prepareShadow(runKey, names, LIVE))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("auto-commit");
        target.rollback();
        target.setAutoCommit(true);
        assertThat(tableExists(names.shadowTable())).isFalse();
    }

    // ---- helpers ----

    /**
     * A live table with identity, defaults, comments, a column named like the table, a primary key, unique and
     * check constraints, foreign keys to another table and to itself, and plain, expression, partial and
     * descending unique indexes.
     */
    private void createRichLiveTable() {
        run("CREATE TABLE " + t("customers") + " (id bigint PRIMARY KEY)");
        run("INSERT INTO " + t("customers") + " VALUES (1), (2)");
        run("CREATE TABLE " + t(LIVE) + " ("
                + " id bigint GENERATED ALWAYS AS IDENTITY,"
                + " code varchar(20) NOT NULL DEFAULT 'none',"
                + " orders text,"
                + " amount numeric(10,2) NOT NULL DEFAULT 0,"
                + " customer_id bigint,"
                + " parent_id bigint,"
                + " created timestamptz NOT NULL DEFAULT now(),"
                + " CONSTRAINT orders_pk PRIMARY KEY (id),"
                + " CONSTRAINT orders_code_uq UNIQUE (code),"
                + " CONSTRAINT orders_amount_ck CHECK (amount >= 0),"
                + " CONSTRAINT orders_customer_fk FOREIGN KEY (customer_id) REFERENCES " + t("customers") + " (id) ON DELETE CASCADE,"
                + " CONSTRAINT orders_parent_fk FOREIGN KEY (parent_id) REFERENCES " + t(LIVE) + " (id))");
        run("CREATE INDEX orders_orders_idx ON " + t(LIVE) + " (orders)");
        run("CREATE INDEX orders_lower_code_idx ON " + t(LIVE) + " (lower(code::text) text_pattern_ops) WHERE orders IS NOT NULL");
        run("CREATE UNIQUE INDEX orders_customer_created_uidx ON " + t(LIVE) + " (customer_id, created DESC NULLS LAST)");
        comment("TABLE " + t(LIVE), USER_COMMENT);
        comment("COLUMN " + t(LIVE) + ".code", "order code");
        comment("INDEX " + t("orders_orders_idx"), "idx comment");
    }

    /** name:identity:default:comment for every column, in order. */
    private List<String> columnFacts(String table) {
        return strings("SELECT a.attname || ':' || coalesce(nullif(a.attidentity::text, ''), '-') || ':'"
                + " || coalesce(pg_get_expr(d.adbin, d.adrelid), '') || ':' || coalesce(col_description(a.attrelid, a.attnum), '')"
                + " FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
                + " WHERE a.attrelid = pg_catalog.to_regclass(?) AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
                qualified(table));
    }

    /** Name to definition (index definitions without their name and table) of every index and constraint. */
    private Map<String, String> definitions(String table) {
        Map<String, String> definitions = new HashMap<>();
        List<String> rows = strings("SELECT c.relname || '|' || substr(pg_get_indexdef(i.indexrelid),"
                + " strpos(pg_get_indexdef(i.indexrelid), ' USING '))"
                + " FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = pg_catalog.to_regclass(?)"
                + " AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.contype IN ('p','u'))"
                + " UNION ALL SELECT conname || '|' || pg_get_constraintdef(oid) FROM pg_constraint"
                + " WHERE conrelid = pg_catalog.to_regclass(?) AND contype <> 'n'", qualified(table), qualified(table));
        for (String row : rows) {
            int bar = row.indexOf('|');
            definitions.put(row.substring(0, bar), row.substring(bar + 1));
        }
        return definitions;
    }

    private Set<String> objectNames(String table) {
        return new TreeSet<>(definitions(table).keySet());
    }

    private Set<String> acl(String table) {
        return new TreeSet<>(strings("SELECT coalesce(pg_get_userbyid(e.grantee), '?') || ':' || e.privilege_type || ':' || e.is_grantable"
                + " FROM pg_class c, aclexplode(coalesce(c.relacl, acldefault('r', c.relowner))) e WHERE c.oid = pg_catalog.to_regclass(?)"
                + " UNION ALL SELECT a.attname || ':' || pg_get_userbyid(e.grantee) || ':' || e.privilege_type || ':' || e.is_grantable"
                + " FROM pg_attribute a, aclexplode(a.attacl) e WHERE a.attrelid = pg_catalog.to_regclass(?)",
                qualified(table), qualified(table)));
    }

    /** The table's storage parameters and its TOAST table's (prefixed {@code toast.}), sorted. */
    private List<String> storageParameters(String table) {
        return strings("SELECT o FROM (SELECT unnest(c.reloptions) AS o FROM pg_class c WHERE c.oid = pg_catalog.to_regclass(?)"
                + " UNION ALL SELECT 'toast.' || unnest(t.reloptions) FROM pg_class c JOIN pg_class t ON t.oid = c.reltoastrelid"
                + " WHERE c.oid = pg_catalog.to_regclass(?)) AS options ORDER BY o", qualified(table), qualified(table));
    }

    private String tableComment(String table) {
        return single("SELECT obj_description(pg_catalog.to_regclass(?), 'pg_class')", qualified(table));
    }

    private long receipts() {
        return Long.parseLong(single("SELECT count(*)::text FROM " + PostgresLedgerSchema.table(stateSchema, "publication_receipt")
                + " WHERE run_key = ?", runKey));
    }

    private String qualified(String table) {
        return PostgresIdentifiers.qualified(schema, table);
    }

    private String t(String table) {
        return PostgresIdentifiers.qualified(schema, table);
    }

    private static String q(String name) {
        return PostgresIdentifiers.quote(name);
    }

    private void comment(String object, String text) {
        try {
            PostgresShadowSql.comment(admin, object, text);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void run(String sql) {
        try {
            exec(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static void exec(String sql) throws SQLException {
        try (Statement s = admin.createStatement()) {
            s.execute(sql);
        }
    }

    private static String single(String sql, String... parameters) {
        List<String> values = strings(sql, parameters);
        return values.isEmpty() ? null : values.get(0);
    }

    private static List<String> strings(String sql, String... parameters) {
        List<String> values = new ArrayList<>();
        try (PreparedStatement ps = admin.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setString(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    values.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        return values;
    }
}
