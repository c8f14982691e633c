package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.publish.ArtifactOwnershipException;
import io.dpone.backfill.core.publish.LiveTargetBaseline;
import io.dpone.backfill.core.publish.ShadowPublisher;
import io.dpone.backfill.core.publish.ShadowPublisherContract;
import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;
import io.dpone.backfill.targets.mssql.ledger.MssqlLedgerConnection;
import io.dpone.backfill.testsupport.mssql.EngineKind;
import io.dpone.backfill.testsupport.mssql.SqlServerTestEngine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The shadow publisher contract on the resolved T-SQL engine ({@link SqlServerTestEngine}: SQL Server when
 * configured or in Docker, else Babelfish), plus what only SQL Server has: catalog-exact column copies, identity
 * positions, collation-aware duplicates, the content fingerprint per type family. One database for the JVM, a schema
 * and a state schema per test; the sessions are kept for the class, because a new Babelfish session parses each
 * statement shape slowly the first time. Without an engine every test is skipped, naming the options. Where a test
 * needs what Babelfish lacks it is skipped there, naming the gap ({@link BabelfishGaps}).
 */
@ExtendWith(BabelfishGaps.class)
class MssqlShadowPublisherIT extends ShadowPublisherContract {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final String LIVE = "orders";
    private static SqlServerTestEngine engine;
    private static String database;
    private static Connection admin;
    private static Connection target;

    private String schema;
    private String stateSchema;
    private String runKey;
    private ArtifactNames names;
    private ShadowPublisher publisher;

    @BeforeEach
    void schema() throws SQLException {
        if (engine == null) {
            engine = SqlServerTestEngine.require();
            BabelfishGaps.engine(engine::kind);
            database = engine.freshDatabase("publish");
            admin = engine.connect(database);
            target = engine.connect(database);
            System.out.println("MssqlShadowPublisherIT runs on " + engine);
        }
        int n = SEQUENCE.incrementAndGet();
        schema = "t" + n;
        stateSchema = "st" + n;
        runKey = "rk-" + n;
        names = new ArtifactNames(schema, LIVE + "__bf_shadow", LIVE + "__bf_backup");
        exec("CREATE SCHEMA " + q(schema));
        MssqlLedgerConnection.store(admin, stateSchema).ensureSchema();
        if (!target.getAutoCommit()) {
            target.setAutoCommit(true);
        }
        publisher = MssqlShadowPublishers.of(target, stateSchema, Duration.ofSeconds(5), FaultPoints.NONE);
    }

    // ---- contract fixture ----

    @Override
    protected ShadowPublisher publisher() {
        return publisher;
    }

    @Override
    protected ShadowPublisher publisherWith(io.dpone.backfill.core.fault.FaultPoints faults) {
        return MssqlShadowPublishers.of(target, stateSchema, Duration.ofSeconds(5), faults);
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
        run("CREATE TABLE " + t(LIVE) + " (id bigint NOT NULL PRIMARY KEY, code nvarchar(100) NOT NULL DEFAULT N'none'"
                + " UNIQUE, note nvarchar(max) NULL)");
        insertRows(LIVE, ids);
    }

    @Override
    protected void insertRows(String table, long... ids) {
        for (long id : ids) {
            run("INSERT INTO " + t(table) + " (id, code) VALUES (" + id + ", N'c" + id + "')");
        }
    }

    @Override
    protected void addNullableColumn(String table, String column) {
        run("ALTER TABLE " + t(table) + " ADD " + q(column) + " nvarchar(max) NULL");
    }

    @Override
    protected void updateNote(String table, long id, String note) {
        run("UPDATE " + t(table) + " SET note = N'" + note.replace("'", "''") + "' WHERE id = " + id);
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
        return single("SELECT CASE WHEN OBJECT_ID(?, N'U') IS NULL THEN 0 ELSE 1 END", t(table)).equals("1");
    }

    @Override
    protected Set<String> uniqueIndexNames(String table) {
        return new TreeSet<>(strings("SELECT name FROM sys.indexes WHERE object_id = OBJECT_ID(?, N'U') AND is_unique = 1", t(table)));
    }

    @Override
    protected void createArtifactTable(String table, String ownerRunKey) {
        run("CREATE TABLE " + t(table) + " (id bigint NULL)");
        run("INSERT INTO " + t(table) + " VALUES (1)");
        if (ownerRunKey != null) {
            try {
                MssqlShadowStamp.write(admin, schema, table, MssqlShadowStamp.shadow(ownerRunKey));
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Override
    protected void createKeyTable(String table, Integer[][] rows) {
        run("CREATE TABLE " + t(table) + " (k1 int NULL, k2 int NULL)");
        try (PreparedStatement ps = admin.prepareStatement("INSERT INTO " + t(table) + " VALUES (?, ?)")) {
            for (Integer[] row : rows) {
                ps.setObject(1, row[0]);
                ps.setObject(2, row[1]);
                ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected void startCampaign(String owner, long epoch, int expiresInSeconds) {
        try (PreparedStatement ps = admin.prepareStatement("INSERT INTO " + q(stateSchema) + ".campaign"
                + " (run_key, backfill_id, plan_digest, config_digest, spec_json, chunk_total, phase, lease_owner,"
                + " lease_epoch, lease_expires) VALUES (?, ?, N'plan', N'config', N'{}', 1, N'Validating', ?, ?,"
                + " DATEADD(second, ?, SYSUTCDATETIME()))")) {
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

    // ---- SQL Server specifics ----

    @Test
    void shadowCopiesColumnTypesCollationsIdentityDefaultsAndComputedColumnsButNoIndexOrConstraint() {
        createRichLiveTable();

        publisher.prepareShadow(runKey, names, LIVE);

        TableShape shadow = publisher.shape(schema, names.shadowTable());
        assertThat(shadow).isEqualTo(publisher.shape(schema, LIVE));
        assertThat(columnFacts(names.shadowTable())).isEqualTo(columnFacts(LIVE));
        assertThat(shadow.column("id").orElseThrow().identity()).isTrue();
        assertThat(shadow.column("amount").orElseThrow().type()).isEqualTo("decimal(12,3)");
        assertThat(shadow.column("at").orElseThrow().type()).isEqualTo("datetime2(3)");
        assertThat(shadow.column("code").orElseThrow().type()).startsWith("nvarchar(20) COLLATE ");
        assertThat(shadow.column("blob").orElseThrow().type()).isEqualTo("varbinary(max)");
        assertThat(shadow.column("doubled").orElseThrow().generated()).isTrue();
        assertThat(strings("SELECT name FROM sys.indexes WHERE object_id = OBJECT_ID(?, N'U') AND index_id > 0",
                t(names.shadowTable()))).as("a heap: no index before loading").isEmpty();
        assertThat(strings("SELECT name FROM sys.objects WHERE parent_object_id = OBJECT_ID(?, N'U') AND type IN ('PK', 'UQ', 'C', 'F')",
                t(names.shadowTable()))).as("no key, unique, check or foreign key before loading").isEmpty();
        assertThat(stamp(names.shadowTable())).isEqualTo("run_key=" + runKey);
    }

    @Test
    void publishAndRollbackOfATableWithoutConstraintsRunEndToEnd() {
        // No index or constraint to rename, so this path runs on Babelfish too: the lock, the fence, the checks,
        // the table renames, the stamps and both receipts.
        run("CREATE TABLE " + t(LIVE) + " (id bigint NOT NULL, code nvarchar(100) NOT NULL, note nvarchar(max) NULL)");
        insertRows(LIVE, 1, 2);
        publisher.prepareShadow(runKey, names, LIVE);
        insertRows(names.shadowTable(), 10, 11, 12);
        publisher.buildDeferredIndexes(runKey, names, LIVE);
        startCampaign(OWNER, EPOCH, 60);

        var receipt = publisher.publish(lease(), names, LIVE, 3, baseline(), shadowPrint());

        assertThat(ids(LIVE)).containsExactly(10L, 11L, 12L);
        assertThat(ids(names.backupTable())).containsExactly(1L, 2L);
        assertThat(tableExists(names.shadowTable())).isFalse();
        assertThat(stamp(LIVE)).isEqualTo("published run_key=" + runKey);
        assertThat(stamp(names.backupTable())).isEqualTo("backup run_key=" + runKey);
        assertThat(publisher.publish(lease(), names, LIVE, 3, baseline(), shadowPrint())).isEqualTo(receipt);

        publisher.rollback(lease(), names, LIVE, "operator asked", false);

        assertThat(ids(LIVE)).containsExactly(1L, 2L);
        assertThat(ids(names.shadowTable())).containsExactly(10L, 11L, 12L);
        assertThat(stamp(LIVE)).isNull();
        assertThat(stamp(names.shadowTable())).isEqualTo("run_key=" + runKey);
    }

    @Test
    void publishContinuesTheIdentityPastTheLoadedRowsAndPastWhatTheLiveTableIssued() {
        run("CREATE TABLE " + t(LIVE) + " (id bigint IDENTITY(1, 1) NOT NULL, code nvarchar(100) NOT NULL)");
        for (int i = 0; i < 5; i++) {
            run("INSERT INTO " + t(LIVE) + " (code) VALUES (N'k" + i + "')");
        }
        publisher.prepareShadow(runKey, names, LIVE);
        run("SET IDENTITY_INSERT " + t(names.shadowTable()) + " ON; INSERT INTO " + t(names.shadowTable())
                + " (id, code) VALUES (1, N'a'), (2, N'b'), (3, N'c'); SET IDENTITY_INSERT " + t(names.shadowTable()) + " OFF");
        startCampaign(OWNER, EPOCH, 60);

        publisher.publish(lease(), names, LIVE, 3, baseline(), shadowPrint());

        run("INSERT INTO " + t(LIVE) + " (code) VALUES (N'new')");
        assertThat(single("SELECT CONVERT(nvarchar(20), MAX(id)) FROM " + t(LIVE)))
                .as("the live table had issued 5: the published one continues after it, never reusing a value")
                .isEqualTo("6");
    }

    @Test
    void validateCountsKeysThatTheTargetCollationMakesEqualAsDuplicates() {
        run("CREATE TABLE " + t("keyed") + " (k nvarchar(20) COLLATE Latin1_General_CI_AS NULL)");
        run("INSERT INTO " + t("keyed") + " VALUES (N'abc'), (N'ABC'), (N'abc  '), (N'x')");

        var result = publisher.validate(schema, "keyed", List.of("k"), 4);

        assertThat(result.duplicateKeys()).as("case-insensitive and trailing-space-padded keys collide").isEqualTo(2);
        assertThat(result.passed()).isFalse();
    }

    @Test
    void fingerprintChangesWhenAnyValueOfAnyTypeFamilyChanges() throws SQLException {
        run("CREATE TABLE " + t("typed") + " (id int NOT NULL, txt nvarchar(50) NULL, ch varchar(10) NULL,"
                + " dec decimal(12,3) NULL, fl float NULL, dt datetime2(6) NULL, dto datetimeoffset(3) NULL,"
                + " d date NULL, b bit NULL, g uniqueidentifier NULL, m money NULL)");
        run("INSERT INTO " + t("typed") + " VALUES (1, N'Abc', 'x', 1.250, 0.1, '2024-01-02 03:04:05.123456',"
                + " '2024-01-02 03:04:05.123 +02:00', '2024-01-02', 1, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 3.5)");
        TableFingerprint original = publisher.fingerprint(schema, "typed");
        assertThat(publisher.fingerprint(schema, "typed")).isEqualTo(original);
        List<String> changes = new ArrayList<>(List.of("txt = N'abc'", "txt = NULL", "txt = N''", "ch = 'x '", "dec = 1.251",
                "fl = 0.1000000001", "dt = '2024-01-02 03:04:05.123457'", "dto = '2024-01-02 03:04:05.123 +03:00'",
                "d = '2024-01-03'", "b = 0", "g = 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A12'"));
        if (engine.kind() != EngineKind.BABELFISH) {
            // Babelfish gap: CONVERT(nvarchar, money, 2) prints two decimals padded with zeros, not the four SQL
            // Server documents, so a change in the last two decimals is invisible there; proven on SQL Server only.
            changes.add("m = 3.5001");
        }
        changes.add("m = 3.51");
        for (String change : changes) {
            run("BEGIN TRANSACTION; UPDATE " + t("typed") + " SET " + change + ";");
            try {
                assertThat(MssqlTableFingerprint.of(admin, schema, "typed")).as(change).isNotEqualTo(original);
            } finally {
                run("ROLLBACK TRANSACTION");
            }
        }
        assertThat(publisher.fingerprint(schema, "typed")).isEqualTo(original);
    }

    @Test
    void fingerprintChangesWhenABinaryValueChanges() {
        assumeFalse(engine.kind() == EngineKind.BABELFISH, "Babelfish gap: CONVERT(nvarchar(max), varbinary, 1)"
                + " returns an empty string there instead of the 0x-hex text SQL Server documents; proven on SQL Server only");
        run("CREATE TABLE " + t("bin") + " (id int NOT NULL, v varbinary(16) NULL)");
        run("INSERT INTO " + t("bin") + " VALUES (1, 0x0102)");
        TableFingerprint original = publisher.fingerprint(schema, "bin");
        run("UPDATE " + t("bin") + " SET v = 0x0103");
        assertThat(publisher.fingerprint(schema, "bin")).isNotEqualTo(original);
    }

    @Test
    void shadowOfAClusteredColumnstoreTableGetsItsColumnstoreBeforeLoading() {
        assumeFalse(engine.kind() == EngineKind.BABELFISH, "Babelfish gap (engines README): CREATE CLUSTERED"
                + " COLUMNSTORE INDEX is not supported; proven on SQL Server only");
        run("CREATE TABLE " + t(LIVE) + " (id bigint NOT NULL, code nvarchar(100) NOT NULL)");
        run("CREATE CLUSTERED COLUMNSTORE INDEX orders_cci ON " + t(LIVE));

        publisher.prepareShadow(runKey, names, LIVE);

        assertThat(strings("SELECT type_desc FROM sys.indexes WHERE object_id = OBJECT_ID(?, N'U') AND index_id > 0",
                t(names.shadowTable()))).containsExactly("CLUSTERED COLUMNSTORE");
    }

    @Test
    void publishCarriesIndexAndConstraintNamesAndRollbackCarriesThemBack() {
        assumeFalse(engine.kind() == EngineKind.BABELFISH, "Babelfish gap (engines README): sp_rename cannot rename"
                + " indexes (nor, on this build, constraints), and index names read back mangled; proven on SQL Server only");
        run("CREATE TABLE " + t(LIVE) + " (id bigint NOT NULL CONSTRAINT orders_pk PRIMARY KEY CLUSTERED,"
                + " code nvarchar(100) NOT NULL CONSTRAINT orders_code_df DEFAULT N'none' CONSTRAINT orders_code_uq UNIQUE,"
                + " amount decimal(10,2) NOT NULL CONSTRAINT orders_amount_ck CHECK (amount >= 0))");
        run("CREATE INDEX orders_amount_ix ON " + t(LIVE) + " (amount DESC) INCLUDE (code) WHERE amount > 0");
        run("INSERT INTO " + t(LIVE) + " VALUES (1, N'old', 1)");
        List<String> original = publisher.liveShape(schema, LIVE).constraints();
        publisher.prepareShadow(runKey, names, LIVE);
        run("INSERT INTO " + t(names.shadowTable()) + " VALUES (5, N'new', 2)");
        publisher.buildDeferredIndexes(runKey, names, LIVE);
        startCampaign(OWNER, EPOCH, 60);

        publisher.publish(lease(), names, LIVE, 1, baseline(), shadowPrint());

        assertThat(publisher.liveShape(schema, LIVE).constraints()).isEqualTo(original);
        assertThatThrownBy(() -> run("INSERT INTO " + t(LIVE) + " VALUES (6, N'x', -1)")).hasMessageContaining("orders_amount_ck");

        publisher.rollback(lease(), names, LIVE, "operator asked", false);

        assertThat(publisher.liveShape(schema, LIVE).constraints()).isEqualTo(original);
        assertThat(single("SELECT code FROM " + t(LIVE))).isEqualTo("old");
    }

    /**
     * Issue 36: another table's foreign key follows the published table, with its action, trusted; a rollback points
     * it back. The referenced table needs a key, whose name the swap carries with sp_rename: Babelfish's gap.
     */
    @Test
    void publishRepointsAnInboundForeignKeyTrustedWithItsActionAndRollbackPointsItBack() {
        createLiveTable(1, 2);
        run("CREATE TABLE " + t("notes") + " (id int NOT NULL PRIMARY KEY, order_id bigint NULL,"
                + " CONSTRAINT notes_order_fk FOREIGN KEY (order_id) REFERENCES " + t(LIVE) + " (id) ON DELETE CASCADE)");
        run("INSERT INTO " + t("notes") + " VALUES (1, 1), (2, NULL)");
        publisher.prepareShadow(runKey, names, LIVE);
        insertRows(names.shadowTable(), 1, 10);
        publisher.buildDeferredIndexes(runKey, names, LIVE);
        startCampaign(OWNER, EPOCH, 60);

        publisher.publish(lease(), names, LIVE, 2, baseline(), shadowPrint());

        assertThat(inboundKey("notes_order_fk")).isEqualTo(t(LIVE) + "|CASCADE|0|0");
        assertThat(ids(LIVE)).containsExactly(1L, 10L);
        run("INSERT INTO " + t("notes") + " VALUES (3, 10)");
        assertThatThrownBy(() -> run("INSERT INTO " + t("notes") + " VALUES (4, 2)")).as("2 is only in the backup")
                .hasMessageContaining("notes_order_fk");
        run("DELETE FROM " + t("notes") + " WHERE id = 3");

        publisher.rollback(lease(), names, LIVE, "operator asked", false);

        assertThat(inboundKey("notes_order_fk")).isEqualTo(t(LIVE) + "|CASCADE|0|0");
        assertThat(ids(LIVE)).containsExactly(1L, 2L);
    }

    /** Issue 36: rows that would reference keys the published table lacks stop the swap, counted and sampled. */
    @Test
    void publishStopsBeforeAnyChangeWhenAnInboundKeyWouldNotHoldNamingTheRows() {
        createLiveTable(1, 2, 3);
        run("CREATE TABLE " + t("notes") + " (id int NOT NULL PRIMARY KEY, order_id bigint NULL,"
                + " CONSTRAINT notes_order_fk FOREIGN KEY (order_id) REFERENCES " + t(LIVE) + " (id))");
        run("INSERT INTO " + t("notes") + " VALUES (1, 1), (2, 2), (3, 3), (4, 3)");
        publisher.prepareShadow(runKey, names, LIVE);
        insertRows(names.shadowTable(), 1);
        publisher.buildDeferredIndexes(runKey, names, LIVE);
        startCampaign(OWNER, EPOCH, 60);

        assertThatThrownBy(() -> publisher.publish(lease(), names, LIVE, 1, baseline(), shadowPrint()))
                .isInstanceOf(io.dpone.backfill.core.publish.ReferencedKeysMissingException.class)
                .hasMessageContaining("notes_order_fk").hasMessageContaining("3 rows")
                .hasMessageContaining("(order_id)=(2)").hasMessageContaining("(order_id)=(3)");

        assertThat(ids(LIVE)).containsExactly(1L, 2L, 3L);
        assertThat(inboundKey("notes_order_fk")).isEqualTo(t(LIVE) + "|NO_ACTION|0|0");
    }

    /**
     * Issue 36: the live table's own keys are added on the loaded shadow, checked (trusted), with their actions; a
     * key of the table to itself references the shadow; a rerun adds nothing.
     */
    @Test
    void theShadowGetsTheLiveTablesForeignKeysTrustedWithTheirActionsAndASelfReferenceOnItself() {
        ordersReferencingCustomersAndThemselves();

        List<String> keys = outboundKeys(names.shadowTable());
        assertThat(keys).hasSize(2);
        assertThat(keys.get(0)).endsWith("|" + t("customers") + "|SET_NULL|0|0");
        assertThat(keys.get(1)).endsWith("|" + t(names.shadowTable()) + "|NO_ACTION|0|0");
        publisher.buildDeferredIndexes(runKey, names, LIVE);
        assertThat(outboundKeys(names.shadowTable())).as("a rerun adds nothing").isEqualTo(keys);
    }

    /**
     * Issue 36: publication carries the shadow's keys' names (sp_rename of constraints: Babelfish's gap, so SQL
     * Server only); the published table's keys are the live table's, trusted, the self-reference on itself.
     */
    @Test
    void publicationGivesThePublishedTableTheLiveTablesForeignKeysUnderTheirNamesTrusted() {
        ordersReferencingCustomersAndThemselves();
        startCampaign(OWNER, EPOCH, 60);

        publisher.publish(lease(), names, LIVE, 3, baseline(), shadowPrint());

        assertThat(outboundKeys(LIVE)).containsExactly("orders_customer_fk|" + t("customers") + "|SET_NULL|0|0",
                "orders_parent_fk|" + t(LIVE) + "|NO_ACTION|0|0");
        assertThatThrownBy(() -> run("INSERT INTO " + t(LIVE) + " VALUES (4, 9, NULL)")).hasMessageContaining("orders_customer_fk");
    }

    /** Live orders (key, a key to customers, a key to itself), a shadow loaded with three rows, its indexes built. */
    private void ordersReferencingCustomersAndThemselves() {
        run("CREATE TABLE " + t("customers") + " (id int NOT NULL CONSTRAINT customers_pk PRIMARY KEY)");
        run("INSERT INTO " + t("customers") + " VALUES (1), (2)");
        run("CREATE TABLE " + t(LIVE) + " (id bigint NOT NULL CONSTRAINT orders_pk PRIMARY KEY, customer_id int NULL"
                + " CONSTRAINT orders_customer_fk REFERENCES " + t("customers") + " (id) ON DELETE SET NULL,"
                + " parent_id bigint NULL CONSTRAINT orders_parent_fk REFERENCES " + t(LIVE) + " (id))");
        publisher.prepareShadow(runKey, names, LIVE);
        assertThat(outboundKeys(names.shadowTable())).as("no key while loading").isEmpty();
        run("INSERT INTO " + t(names.shadowTable()) + " VALUES (1, 1, NULL), (2, NULL, 1), (3, 2, 2)");
        publisher.buildDeferredIndexes(runKey, names, LIVE);
    }

    /** Issue 36: loaded rows that reference keys the referenced table lacks block the build, counted and sampled. */
    @Test
    void theShadowBuildStopsNamingTheCountAndASampleOfRowsWhoseReferencedKeysAreMissing() {
        run("CREATE TABLE " + t("customers") + " (id int NOT NULL CONSTRAINT customers_pk PRIMARY KEY)");
        run("INSERT INTO " + t("customers") + " VALUES (1)");
        run("CREATE TABLE " + t(LIVE) + " (id bigint NOT NULL, customer_id int NULL"
                + " CONSTRAINT orders_customer_fk REFERENCES " + t("customers") + " (id))");
        publisher.prepareShadow(runKey, names, LIVE);
        run("INSERT INTO " + t(names.shadowTable()) + " VALUES (1, 1), (2, 7), (3, 7), (4, 8), (5, NULL)");

        assertThatThrownBy(() -> publisher.buildDeferredIndexes(runKey, names, LIVE))
                .isInstanceOf(io.dpone.backfill.core.publish.ReferencedKeysMissingException.class)
                .hasMessageContaining("orders_customer_fk").hasMessageContaining("3 rows")
                .hasMessageContaining("(customer_id)=(7)").hasMessageContaining("(customer_id)=(8)");
        assertThat(outboundKeys(names.shadowTable())).isEmpty();
    }

    /** name | referenced table (two-part) | delete action | disabled | untrusted of each key of a table, by name. */
    private List<String> outboundKeys(String table) {
        return strings("SELECT CONCAT(name, N'|', QUOTENAME(OBJECT_SCHEMA_NAME(referenced_object_id)), N'.',"
                + " QUOTENAME(OBJECT_NAME(referenced_object_id)), N'|', delete_referential_action_desc, N'|',"
                + " CONVERT(int, is_disabled), N'|', CONVERT(int, is_not_trusted)) AS k FROM sys.foreign_keys"
                + " WHERE parent_object_id = OBJECT_ID(?) ORDER BY k", t(table));
    }

    /** referenced table (two-part) | delete action | disabled | untrusted, of the key on notes. */
    private String inboundKey(String name) {
        return single("SELECT CONCAT(QUOTENAME(OBJECT_SCHEMA_NAME(referenced_object_id)), N'.',"
                + " QUOTENAME(OBJECT_NAME(referenced_object_id)), N'|', delete_referential_action_desc, N'|',"
                + " CONVERT(int, is_disabled), N'|', CONVERT(int, is_not_trusted)) FROM sys.foreign_keys"
                + " WHERE name = ? AND parent_object_id = OBJECT_ID(?)", name, t("notes"));
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
                .hasMessageContaining("deferred indexes");
        assertThat(state()).isEqualTo(before);
        assertThat(single("SELECT CONVERT(nvarchar(20), COUNT(*)) FROM " + q(stateSchema) + ".publication_receipt")).isEqualTo("0");
    }

    @Test
    @Timeout(60) // without LOCK_TIMEOUT the swap would wait for the writer forever
    void publishGivesUpAfterTheLockTimeoutWhileAWriterHoldsTheLiveTableAndSucceedsLater() throws SQLException {
        unconstrainedLoadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        LiveTargetBaseline baseline = baseline();
        TableFingerprint shadow = shadowPrint();
        ShadowPublisher impatient = MssqlShadowPublishers.of(target, stateSchema, Duration.ofMillis(500), FaultPoints.NONE);
        try (Connection writer = engine.connect(database)) {
            writer.setAutoCommit(false);
            try (Statement s = writer.createStatement()) {
                s.executeUpdate("UPDATE " + t(LIVE) + " SET note = N'uncommitted' WHERE id = 1"); // locks until rollback
            }
            long started = System.nanoTime();
            assertThatThrownBy(() -> impatient.publish(lease(), names, LIVE, 3, baseline, shadow))
                    .isInstanceOfSatisfying(DatabaseFailureException.class,
                            e -> assertThat(e.kind()).isEqualTo(DatabaseFailureException.Kind.TRANSIENT));
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
            writer.rollback();
        }
        assertThat(ids(LIVE)).containsExactly(1L, 2L);
        assertThat(tableExists(names.backupTable())).isFalse();

        assertThat(impatient.publish(lease(), names, LIVE, 3, baseline, shadow).rows()).isEqualTo(3);
        assertThat(ids(LIVE)).containsExactly(10L, 11L, 12L);
    }

    @Test
    void concurrentPublishesSwapOnceAndReturnTheSameReceipt() throws Exception {
        unconstrainedLoadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        LiveTargetBaseline baseline = baseline();
        TableFingerprint shadow = shadowPrint();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Connection second = engine.connect(database)) {
            ShadowPublisher other = MssqlShadowPublishers.of(second, stateSchema, Duration.ofSeconds(30), FaultPoints.NONE);
            Future<PublicationReceipt> a = pool.submit(() -> publisher.publish(lease(), names, LIVE, 3, baseline, shadow));
            Future<PublicationReceipt> b = pool.submit(() -> other.publish(lease(), names, LIVE, 3, baseline, shadow));
            assertThat(a.get()).isEqualTo(b.get());
        } finally {
            pool.shutdownNow();
        }
        assertThat(ids(LIVE)).containsExactly(10L, 11L, 12L);
        assertThat(ids(names.backupTable())).containsExactly(1L, 2L);
        assertThat(single("SELECT CONVERT(nvarchar(20), COUNT(*)) FROM " + q(stateSchema) + ".publication_receipt")).isEqualTo("1");
    }

    @Test
    void rollbackFailsClosedWhenTheLiveTableNoLongerCarriesThePublishedStamp() throws SQLException {
        unconstrainedLoadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        publisher.publish(lease(), names, LIVE, 3, baseline(), shadowPrint());
        MssqlShadowStamp.write(admin, schema, LIVE, "someone re-created me");
        TargetState before = state();

        assertThatThrownBy(() -> publisher.rollback(lease(), names, LIVE, "x", false))
                .isInstanceOf(ArtifactOwnershipException.class)
                .hasMessageContaining(LIVE);
        assertThat(state()).isEqualTo(before);
    }

    @Test
    void preparingAndBuildingAfterPublicationChangeNothing() {
        unconstrainedLoadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        publisher.publish(lease(), names, LIVE, 3, baseline(), shadowPrint());
        TargetState after = state();

        publisher.prepareShadow(runKey, names, LIVE);
        publisher.buildDeferredIndexes(runKey, names, LIVE);

        assertThat(tableExists(names.shadowTable())).isFalse();
        assertThat(state()).isEqualTo(after);
    }

    @Test
    void publishGivesThePublishedTableTheLiveOwnerAndExactlyTheLivePermissions() {
        assumeFalse(engine.kind() == EngineKind.BABELFISH, "Babelfish gap: sys.database_permissions lists no object"
                + " permissions and DENY is not supported there; proven on SQL Server only");
        unconstrainedLoadedShadow();
        String reader = "bf_reader_" + schema;
        run("CREATE ROLE " + q(reader));
        run("GRANT SELECT ON " + t(LIVE) + " TO " + q(reader));
        run("GRANT UPDATE (note) ON " + t(LIVE) + " TO " + q(reader) + " WITH GRANT OPTION");
        run("DENY DELETE ON " + t(LIVE) + " TO " + q(reader));
        run("GRANT INSERT ON " + t(names.shadowTable()) + " TO " + q(reader)); // stray: must not survive
        List<String> livePermissions = permissions(LIVE);
        startCampaign(OWNER, EPOCH, 60);

        publisher.publish(lease(), names, LIVE, 3, baseline(), shadowPrint());

        assertThat(permissions(LIVE)).isEqualTo(livePermissions).isEqualTo(permissions(names.backupTable()))
                .contains("W:UPDATE:note:" + reader, "D:DELETE::" + reader, "G:SELECT::" + reader);
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
        try {
            assertThatThrownBy(() -> publisher.prepareShadow(runKey, names, LIVE))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("auto-commit");
        } finally {
            target.rollback();
            target.setAutoCommit(true);
        }
        assertThat(tableExists(names.shadowTable())).isFalse();
    }

    // ---- helpers ----

    /** Live rows 1, 2 and a shadow loaded with 10, 11, 12, on a table without indexes or constraints to rename. */
    private void unconstrainedLoadedShadow() {
        run("CREATE TABLE " + t(LIVE) + " (id bigint NOT NULL, code nvarchar(100) NOT NULL, note nvarchar(max) NULL)");
        insertRows(LIVE, 1, 2);
        publisher.prepareShadow(runKey, names, LIVE);
        insertRows(names.shadowTable(), 10, 11, 12);
        publisher.buildDeferredIndexes(runKey, names, LIVE);
    }

    private void createRichLiveTable() {
        run("CREATE TABLE " + t(LIVE) + " ("
                + " id bigint IDENTITY(100, 5) NOT NULL,"
                + " code nvarchar(20) COLLATE Latin1_General_CS_AS NOT NULL CONSTRAINT orders_code_df DEFAULT N'none',"
                + " amount decimal(12,3) NOT NULL CONSTRAINT orders_amount_df DEFAULT 0,"
                + " at datetime2(3) NULL, ratio float NULL, flag bit NULL, fixed char(3) NULL, blob varbinary(max) NULL,"
                + " doubled AS (amount * 2),"
                + " CONSTRAINT orders_pk PRIMARY KEY (id), CONSTRAINT orders_code_uq UNIQUE (code),"
                + " CONSTRAINT orders_amount_ck CHECK (amount >= 0))");
    }

    /** name|type|length|precision|scale|nullable|collation|identity seed/increment|default|computed, in order. */
    private List<String> columnFacts(String table) {
        return strings("SELECT CONCAT(c.name, N'|', TYPE_NAME(c.user_type_id), N'|', c.max_length, N'|', c.precision,"
                + " N'|', c.scale, N'|', c.is_nullable, N'|', c.collation_name, N'|', CASE WHEN c.is_identity = 1 THEN"
                + " CONCAT(CONVERT(nvarchar(30), IDENT_SEED(?)), N'/', CONVERT(nvarchar(30), IDENT_INCR(?))) END,"
                + " N'|', dc.definition, N'|', cc.definition) FROM sys.columns c"
                + " LEFT JOIN sys.default_constraints dc ON dc.object_id = c.default_object_id"
                + " LEFT JOIN sys.computed_columns cc ON cc.object_id = c.object_id AND cc.column_id = c.column_id"
                + " WHERE c.object_id = OBJECT_ID(?, N'U') ORDER BY c.column_id", t(table), t(table), t(table));
    }

    /** state:permission:column:grantee of every object permission on a table, sorted. */
    private List<String> permissions(String table) {
        return strings("SELECT CONCAT(RTRIM(p.state), N':', p.permission_name, N':', COL_NAME(p.major_id, NULLIF(p.minor_id, 0)),"
                + " N':', USER_NAME(p.grantee_principal_id)) AS e FROM sys.database_permissions p"
                + " WHERE p.class = 1 AND p.major_id = OBJECT_ID(?, N'U') ORDER BY e", t(table));
    }

    private String stamp(String table) {
        try {
            return MssqlShadowStamp.read(admin, schema, table);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private String t(String table) {
        return MssqlObjectNames.twoPart(schema, table);
    }

    private static String q(String name) {
        return MssqlIdentifiers.quote(name);
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
