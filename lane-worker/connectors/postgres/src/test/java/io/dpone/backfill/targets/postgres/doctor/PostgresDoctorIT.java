package io.dpone.backfill.targets.postgres.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.doctor.DoctorReport;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.Severity;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.source.postgres.PostgresSourceAdapter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Doctor on purpose-built source and target databases: one test per family of findings, and a clean bill for a
 * good setup. Source and target are different databases, as in production.
 */
public class PostgresDoctorIT {
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final String RUN_KEY = "run-doctor";
    private static String sourceDb;
    private static String targetDb;
    private static Connection source;
    private static Connection target;
    private static String suffix;

    private String sourceSchema;
    private String targetSchema;
    private String stateSchema;
    private final PostgresDoctor doctor = new PostgresDoctor();

    @BeforeAll
    static void databases() throws SQLException {
        sourceDb = SharedEmbeddedPostgres.freshDatabase("doctor_source");
        targetDb = SharedEmbeddedPostgres.freshDatabase("doctor_target");
        source = SharedEmbeddedPostgres.get().connect(sourceDb);
        target = SharedEmbeddedPostgres.get().connect(targetDb);
        suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
    }

    @AfterAll
    static void close() throws SQLException {
        source.close();
        target.close();
    }

    /** A good setup: source and target tables with compatible (some widened) columns and an enforced key. */
    @BeforeEach
    void goodSetup() throws SQLException {
        int n = SEQUENCE.incrementAndGet();
        sourceSchema = "src" + n;
        targetSchema = "tgt" + n;
        stateSchema = "state" + n;
        exec(source, "CREATE SCHEMA " + sourceSchema);
        exec(source, "CREATE TABLE " + sourceSchema + ".events (event_id bigint PRIMARY KEY, kind text NOT NULL,"
                + " payload varchar(40), amount integer, ref uuid NOT NULL)");
        exec(target, "CREATE SCHEMA " + targetSchema);
        exec(target, "CREATE TABLE " + targetSchema + ".events (event_id bigint PRIMARY KEY, kind text NOT NULL,"
                + " payload text, amount bigint, ref uuid NOT NULL)");
    }

    @Test
    void aGoodSetupGetsACleanBillAndDoctorCreatesNothing() throws SQLException {
        String sourceBefore = catalogFingerprint(source);
        String targetBefore = catalogFingerprint(target);

        DoctorReport report = check(spec());

        assertThat(report.findings()).allMatch(f -> f.severity() == Severity.OK, "only OK findings");
        assertThat(report.hasErrors()).isFalse();
        assertThat(codes(report)).contains("source.connection.ok", "target.connection.ok", "source.table.readable",
                "source.chunk-column.ok", "source.unique-key.enforced", "target.table.ok", "target.privileges.ok",
                "target.columns.compatible", "target.bindings.none", "target.grants.none", "target.shadow.free",
                "target.backup.free");
        assertThat(catalogFingerprint(source)).isEqualTo(sourceBefore);
        assertThat(catalogFingerprint(target)).as("no shadow, no ledger, no state schema").isEqualTo(targetBefore);
    }

    @Test
    void aConnectionThatDoesNotAnswerIsAnErrorAndTheOtherSideIsStillChecked() throws SQLException {
        Connection closed = SharedEmbeddedPostgres.get().connect(sourceDb);
        closed.close();

        DoctorReport sourceDown = doctor.check(spec(), names(spec()), from(closed, spec()), target, RUN_KEY);
        DoctorReport targetDown = doctor.check(spec(), names(spec()), from(source, spec()), closed, RUN_KEY);

        assertError(sourceDown, "source.connection.failed", "source");
        assertThat(codes(sourceDown)).contains("target.table.ok").doesNotContain("source.table.readable");
        assertError(targetDown, "target.connection.failed", "target");
        assertThat(codes(targetDown)).contains("source.table.readable").doesNotContain("target.table.ok");
    }

    @Test
    void missingPrivilegesOnEitherSideAreErrors() throws SQLException {
        String role = "bf_doctor_" + suffix + "_" + SEQUENCE.get();
        exec(source, "CREATE ROLE " + role + " LOGIN");
        exec(source, "GRANT USAGE ON SCHEMA " + sourceSchema + " TO " + role);
        exec(target, "GRANT USAGE ON SCHEMA " + targetSchema + " TO " + role);
        try (Connection weakSource = connectAs(sourceDb, role); Connection weakTarget = connectAs(targetDb, role)) {
            DoctorReport report = doctor.check(spec(), names(spec()), from(weakSource, spec()), weakTarget, RUN_KEY);

            assertError(report, "source.table.select-denied", sourceSchema + ".events");
            assertError(report, "target.schema.create-denied", targetSchema);
            assertError(report, "target.table.not-owner", targetSchema + ".events");
            assertError(report, "state.database.create-denied", stateSchema);

            exec(target, "CREATE SCHEMA " + stateSchema);
            DoctorReport stateExists = doctor.check(spec(), names(spec()), from(weakSource, spec()), weakTarget, RUN_KEY);
            assertError(stateExists, "state.schema.create-denied", stateSchema);
            assertThat(codes(stateExists)).doesNotContain("state.database.create-denied");

            exec(source, "GRANT SELECT ON " + sourceSchema + ".events TO " + role);
            exec(target, "GRANT USAGE, CREATE ON SCHEMA " + targetSchema + ", " + stateSchema + " TO " + role);
            exec(target, "ALTER TABLE " + targetSchema + ".events OWNER TO " + role);
            DoctorReport granted = doctor.check(spec(), names(spec()), from(weakSource, spec()), weakTarget, RUN_KEY);
            assertThat(granted.withSeverity(Severity.ERROR)).isEmpty();
            assertThat(codes(granted)).contains("target.privileges.ok", "source.table.readable");
        }
    }

    @Test
    void aMissingSourceTableIsAnError() {
        BackfillCampaignSpec spec = spec();
        spec.getSource().setTable("no_such_events");

        DoctorReport report = check(spec);

        assertError(report, "source.table.missing", "no_such_events");
        assertThat(codes(report)).noneMatch(c -> c.startsWith("source.chunk-column") || c.startsWith("source.unique-key"));
    }

    @Test
    void theChunkColumnMustExistBeNotNullAndMatchTheChunkKind() throws SQLException {
        exec(source, "ALTER TABLE " + sourceSchema + ".events ADD COLUMN loose_id bigint, ADD COLUMN label text NOT NULL DEFAULT ''");
        exec(source, "CREATE DOMAIN " + sourceSchema + ".small_id AS integer");
        exec(source, "ALTER TABLE " + sourceSchema + ".events ADD COLUMN domain_id " + sourceSchema + ".small_id NOT NULL DEFAULT 0");

        assertError(check(chunk("no_such_column", ChunkKind.INTEGER)), "source.chunk-column.missing", "no_such_column");
        assertError(check(chunk("loose_id", ChunkKind.INTEGER)), "source.chunk-column.nullable", "loose_id");
        assertError(check(chunk("event_id", ChunkKind.UUID)), "source.chunk-column.type-mismatch", "bigint");
        assertError(check(chunk("label", ChunkKind.INTEGER)), "source.chunk-column.type-mismatch", "text");
        assertThat(codes(check(chunk("ref", ChunkKind.UUID)))).contains("source.chunk-column.ok");
        assertThat(codes(check(chunk("domain_id", ChunkKind.INTEGER)))).as("a domain over integer is an integer")
                .contains("source.chunk-column.ok");
    }

    @Test
    void theUniqueKeyMustExistOnBothSidesBeNotNullAndIsWarnedAboutWhenNotEnforced() throws SQLException {
        exec(source, "ALTER TABLE " + sourceSchema + ".events ADD COLUMN tenant integer, ADD COLUMN seq integer NOT NULL DEFAULT 0,"
                + " ADD COLUMN part integer NOT NULL DEFAULT 0, ADD COLUMN only_source integer NOT NULL DEFAULT 0");
        exec(source, "CREATE UNIQUE INDEX ON " + sourceSchema + ".events (seq, kind)");
        exec(source, "CREATE UNIQUE INDEX ON " + sourceSchema + ".events (part) WHERE part > 0");
        exec(source, "CREATE INDEX ON " + sourceSchema + ".events (amount)");
        exec(target, "ALTER TABLE " + targetSchema + ".events ADD COLUMN tenant integer, ADD COLUMN seq integer NOT NULL DEFAULT 0,"
                + " ADD COLUMN part integer NOT NULL DEFAULT 0");

        assertError(check(key("event_id", "nope")), "source.unique-key.missing", "nope");
        assertError(check(key("only_source")), "target.unique-key.missing", "only_source");
        assertError(check(key("tenant")), "source.unique-key.nullable", "tenant");
        DoctorReport notEnforced = check(key("kind"));
        assertThat(notEnforced.find("source.unique-key.not-enforced")).get()
                .satisfies(f -> assertThat(f.severity()).isEqualTo(Severity.WARNING))
                .satisfies(f -> assertThat(f.message()).contains("declared, not enforced: validation will check duplicates"));
        assertThat(codes(check(key("part")))).as("a partial unique index does not enforce the key")
                .contains("source.unique-key.not-enforced");
        assertThat(codes(check(key("kind", "seq")))).as("a unique index on the same columns in another order")
                .contains("source.unique-key.enforced");
    }

    @Test
    void aMissingTargetTableIsAnError() {
        BackfillCampaignSpec spec = spec();
        spec.getTarget().setTable("not_provisioned");

        DoctorReport report = check(spec);

        assertError(report, "target.table.missing", "not_provisioned");
        assertThat(codes(report)).doesNotContain("target.columns.compatible", "target.bindings.none");
    }

    @Test
    void everyTargetColumnMustBeLoadableFromTheSource() throws SQLException {
        exec(target, "ALTER TABLE " + targetSchema + ".events ALTER COLUMN amount TYPE smallint,"
                + " ALTER COLUMN kind TYPE integer USING 0,"
                + " ADD COLUMN required_extra text NOT NULL, ADD COLUMN optional_extra text,"
                + " ADD COLUMN defaulted_extra timestamptz NOT NULL DEFAULT now(),"
                + " ADD COLUMN doubled bigint GENERATED ALWAYS AS (event_id * 2) STORED");

        DoctorReport report = check(spec());

        assertError(report, "target.column.type-incompatible", "amount");
        assertThat(report.findings()).filteredOn(f -> f.code().equals("target.column.type-incompatible"))
                .extracting(Finding::message).anyMatch(m -> m.contains("kind") && m.contains("text") && m.contains("integer"));
        assertError(report, "target.column.required-missing-in-source", "required_extra");
        assertThat(report.findings()).filteredOn(f -> f.code().equals("target.column.missing-in-source"))
                .extracting(Finding::severity).containsOnly(Severity.WARNING).hasSize(2);
        // A generated column is computed by the target: doctor says so, and never as a problem.
        assertThat(report.findings()).filteredOn(f -> f.message().contains("doubled"))
                .extracting(Finding::code, Finding::severity).containsExactly(tuple("target.column.generated", Severity.OK));
        assertThat(report.findings()).extracting(Finding::message).noneMatch(m -> m.contains("payload"));

        assertThat(PostgresDoctorTypes.compatible("character varying(40)", "character varying(80)")).isTrue();
        assertThat(PostgresDoctorTypes.compatible("character varying(80)", "character varying(40)")).isFalse();
        assertThat(PostgresDoctorTypes.compatible("numeric(10,2)", "numeric(12,2)")).isTrue();
        assertThat(PostgresDoctorTypes.compatible("numeric(10,2)", "numeric(10,3)")).isFalse();
        assertThat(PostgresDoctorTypes.compatible("integer", "numeric")).isTrue();
        assertThat(PostgresDoctorTypes.compatible("bigint", "numeric(18,0)")).isFalse();
        assertThat(PostgresDoctorTypes.compatible("text", "character varying(10)")).isFalse();
        assertThat(PostgresDoctorTypes.compatible("real", "double precision")).isTrue();
    }

    @Test
    void objectsBoundToTheLiveTableThatASwapWouldOrphanOrRedirectAreFound() throws SQLException {
        String live = targetSchema + ".events";
        String role = "bf_reader_" + suffix + "_" + SEQUENCE.get();
        exec(target, "CREATE VIEW " + targetSchema + ".recent_events AS SELECT event_id FROM " + live);
        exec(target, "CREATE TABLE " + targetSchema + ".event_notes (event_id bigint CONSTRAINT notes_event_fk REFERENCES " + live + ")");
        exec(target, "CREATE FUNCTION " + targetSchema + ".touch() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END'");
        exec(target, "CREATE TRIGGER events_touch BEFORE INSERT ON " + live + " FOR EACH ROW EXECUTE FUNCTION " + targetSchema + ".touch()");
        exec(target, "ALTER TABLE " + live + " ENABLE ROW LEVEL SECURITY");
        exec(target, "CREATE POLICY own_rows ON " + live + " USING (true)");
        exec(target, "CREATE PUBLICATION events_pub_" + SEQUENCE.get() + " FOR TABLE " + live);
        exec(target, "CREATE ROLE " + role);
        exec(target, "GRANT SELECT ON " + live + " TO " + role);

        DoctorReport report = check(spec());

        assertError(report, "target.binding.view", targetSchema + ".recent_events");
        // Re-pointed by the swap, and it references nothing yet: a note, not a refusal.
        assertThat(report.find("target.binding.inbound-foreign-key")).get()
                .satisfies(f -> assertThat(f.severity()).isEqualTo(Severity.OK))
                .satisfies(f -> assertThat(f.message()).contains("notes_event_fk").contains("re-points it"));
        assertError(report, "target.binding.trigger", "events_touch");
        assertError(report, "target.binding.row-security", "own_rows");
        assertError(report, "target.binding.publication", "events_pub_");
        assertThat(report.find("target.grants.copied")).get()
                .satisfies(f -> assertThat(f.severity()).isEqualTo(Severity.WARNING))
                .satisfies(f -> assertThat(f.message()).contains(role));
        assertThat(codes(report)).doesNotContain("target.bindings.none", "target.grants.none");
    }

    @Test
    void aForeignOrUnstampedShadowAndATakenBackupNameAreErrorsAndOurOwnShadowIsFine() throws SQLException {
        ArtifactNames names = names(spec());
        String shadow = targetSchema + "." + names.shadowTable();
        String backup = targetSchema + "." + names.backupTable();

        exec(target, "CREATE TABLE " + shadow + " (id bigint)");
        assertError(check(spec()), "target.shadow.unstamped", names.shadowTable());

        exec(target, "COMMENT ON TABLE " + shadow + " IS 'dpone-backfill run_key=another-run'");
        assertError(check(spec()), "target.shadow.foreign", "another-run");

        exec(target, "COMMENT ON TABLE " + shadow + " IS 'dpone-backfill run_key=" + RUN_KEY + "'");
        assertThat(codes(check(spec()))).contains("target.shadow.owned").doesNotContain("target.shadow.foreign");

        exec(target, "CREATE TABLE " + backup + " (id bigint)");
        assertError(check(spec()), "target.backup.exists", names.backupTable());
    }

    // ---- helpers ----

    /** The campaign's source table over {@code connection}, as a driver hands it to the doctor. */
    private static SourceTable from(Connection connection, BackfillCampaignSpec spec) {
        return new SourceTable(new PostgresSourceAdapter(), connection, spec.getSource().getSchema(),
                spec.getSource().getTable());
    }

    private DoctorReport check(BackfillCampaignSpec spec) {
        return doctor.check(spec, names(spec), from(source, spec), target, RUN_KEY);
    }

    private static ArtifactNames names(BackfillCampaignSpec spec) {
        return ArtifactNames.derive(spec);
    }

    private BackfillCampaignSpec spec() {
        BackfillCampaignSpec spec = CampaignReader.parse(CampaignYamlFixture.postgres()).spec();
        spec.getSource().setSchema(sourceSchema);
        spec.getSource().setTable("events");
        spec.getTarget().setSchema(targetSchema);
        spec.getTarget().setTable("events");
        spec.getState().setSchema(stateSchema);
        spec.getChunk().setColumn("event_id");
        spec.getChunk().setKind(ChunkKind.INTEGER);
        spec.setUniqueKey(List.of("event_id"));
        return spec;
    }

    private BackfillCampaignSpec chunk(String column, ChunkKind kind) {
        BackfillCampaignSpec spec = spec();
        spec.getChunk().setColumn(column);
        spec.getChunk().setKind(kind);
        return spec;
    }

    private BackfillCampaignSpec key(String... columns) {
        BackfillCampaignSpec spec = spec();
        spec.setUniqueKey(List.of(columns));
        return spec;
    }

    private static void assertError(DoctorReport report, String code, String mentioned) {
        assertThat(report.hasErrors()).isTrue();
        assertThat(report.findings()).as(report.toString())
                .anyMatch(f -> f.code().equals(code) && f.severity() == Severity.ERROR && f.message().contains(mentioned)
                        && !f.recommendedAction().isBlank());
    }

    private static List<String> codes(DoctorReport report) {
        return report.findings().stream().map(Finding::code).toList();
    }

    /** Every relation and schema in the database: doctor must leave it exactly as it was. */
    private static String catalogFingerprint(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT (SELECT string_agg(oid::text || relname || coalesce(obj_description(oid, 'pg_class'), ''), ',' ORDER BY oid) FROM pg_class)"
                        + " || '|' || (SELECT string_agg(nspname, ',' ORDER BY nspname) FROM pg_namespace)")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static Connection connectAs(String database, String role) throws SQLException {
        return DriverManager.getConnection(SharedEmbeddedPostgres.get().jdbcUrl(database).replace("user=postgres", "user=" + role));
    }

    private static void exec(Connection connection, String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }
}
