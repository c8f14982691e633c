package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.campaign.ArtifactScope;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;
import io.dpone.backfill.targets.mssql.RecordingConnection;
import io.dpone.backfill.targets.mssql.TsqlStatementRules;
import io.dpone.backfill.targets.mssql.WorstCaseNames;
import io.dpone.backfill.targets.mssql.publish.MssqlCarriedObject.Kind;
import io.dpone.backfill.targets.mssql.publish.MssqlSwapAccess.Permission;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shadow, publication, swap and rollback statements, rendered for worst-case inputs (128-character schema, table,
 * column, index and constraint names holding {@code ]}, quotes, {@code ?}, spaces and non-BMP characters; 1,024
 * columns, SQL Server's limit for a non-wide table; a 16-column key, the key-column limit;
 * docs/sql-server/maximum-capacity-specifications-for-sql-server.md) and checked against {@link TsqlStatementRules}.
 * The adapter's real classes render them: static renderers directly, the catalog reads and sp_rename calls through a
 * recording JDBC connection. Nothing here ran on SQL Server.
 */
class MssqlPublishStatementsGrammarTest {
    private static final String SCHEMA = WorstCaseNames.identifier("schema");
    private static final String TABLE = WorstCaseNames.identifier("table");
    private static final int MAX_COLUMNS = 1024;
    private static final int MAX_KEY_COLUMNS = 16;
    /** sp_rename's @objname is nvarchar(776) (sql-docs docs/relational-databases/system-stored-procedures/sp-rename-transact-sql.md). */
    private static final int SP_RENAME_OBJNAME = 776;

    private final ArtifactNames names = ArtifactNames.derive(spec());

    @Test
    void theShadowBackupAndCarriedNamesDerivedFromA128CharacterTableStayWithin128() {
        String original = WorstCaseNames.identifier("pk");
        assertThat(List.of(names.shadowTable(), names.backupTable(), CarriedObjectNames.onShadow(names, original),
                CarriedObjectNames.onBackup(names, original)))
                .allSatisfy(n -> assertThat(n.length()).isBetween(1, MssqlIdentifiers.MAX_LENGTH))
                .doesNotHaveDuplicates();
    }

    @Test
    void theShadowsCreateTableOf1024WorstCaseColumnsObeysTheGrammar() {
        String sql = MssqlShadowDdl.createTable(SCHEMA, names.shadowTable(), columns(MAX_COLUMNS),
                n -> CarriedObjectNames.onShadow(names, n));

        assertThat(TsqlStatementRules.problems(sql)).isEmpty();
        assertThat(TsqlStatementRules.identifiers(sql)).contains(names.shadowTable(), WorstCaseNames.identifier("c1023"));
    }

    @Test
    void everyCarriedKeyIndexCheckAndColumnstoreIsRebuiltOnTheShadowByAStatementThatObeysTheGrammar() throws SQLException {
        RecordingConnection recording = catalogOfAWorstCaseTable();

        List<MssqlCarriedObject> objects = new MssqlCatalogObjects(recording.connection()).of(SCHEMA, TABLE);
        assertThat(objects).extracting(MssqlCarriedObject::kind)
                .contains(Kind.PRIMARY_KEY, Kind.INDEX, Kind.UNIQUE, Kind.CHECK, Kind.DEFAULT, Kind.CLUSTERED_COLUMNSTORE);
        List<String> rebuilt = new ArrayList<>();
        for (MssqlCarriedObject o : objects) {
            String sql = MssqlShadowDdl.create(o, SCHEMA, names.shadowTable(), CarriedObjectNames.onShadow(names, o.name()));
            if (sql != null) {
                rebuilt.add(sql);
            }
        }
        assertThat(rebuilt).hasSize(5).allSatisfy(sql -> assertThat(TsqlStatementRules.problems(sql)).as(sql).isEmpty());
        assertThat(recording.sent()).allSatisfy(s -> assertThat(s.problems()).as(s.sql()).isEmpty());
    }

    @Test
    void tuningValidationPermissionAndIdentityStatementsObeyTheGrammar() {
        String shadow = MssqlObjectNames.twoPart(SCHEMA, names.shadowTable());
        List<String> keys = IntStream.range(0, MAX_KEY_COLUMNS).mapToObj(i -> WorstCaseNames.identifier("k" + i)).toList();
        List<String> statements = List.of(
                MssqlShadowTuning.lockEscalation(SCHEMA, names.shadowTable(), "DISABLE"),
                MssqlShadowTuning.compressAllRowGroups(SCHEMA, names.shadowTable(), WorstCaseNames.identifier("ccs")),
                MssqlShadowValidator.sql(SCHEMA, names.shadowTable(), keys),
                MssqlSwapAccess.statement(new Permission("W", "UPDATE", WorstCaseNames.identifier("grantee"),
                        WorstCaseNames.identifier("col")), "OBJECT::" + shadow),
                MssqlSwapAccess.statement(new Permission("D", "SELECT", WorstCaseNames.identifier("grantee"), null),
                        "OBJECT::" + shadow),
                MssqlSwapIdentity.reseedStatement(shadow, new BigDecimal("-99999999999999999999999999999999999999")),
                "SELECT " + MssqlSwapIdentity.liveIssued(MssqlObjectNames.twoPart(SCHEMA, TABLE)));

        assertThat(statements).allSatisfy(sql -> assertThat(TsqlStatementRules.problems(sql)).as(sql).isEmpty());
    }

    @Test
    void theFingerprintOfUpTo1024ColumnsStaysWithinConcatsArgumentLimit() {
        // CONCAT takes 2 to 254 arguments: 253 columns fit one call, 254 and more are nested (MssqlConcat), up to
        // SQL Server's 1,024 columns of a table. The unnested form fails this checker from 254 columns on.
        for (int n : new int[]{1, 253, 254, 255, 1024}) {
            String sql = MssqlTableFingerprint.sql(SCHEMA, TABLE, columns(n));

            assertThat(TsqlStatementRules.problems(sql)).as("%d columns", n).isEmpty();
        }
    }

    @Test
    void swapRenamesSendObjnameWithinNvarchar776AndNewnameWithin128() throws SQLException {
        RecordingConnection recording = new RecordingConnection();
        MssqlSwapRenamer renamer = new MssqlSwapRenamer(recording.connection());
        String index = WorstCaseNames.identifier("ix");
        String key = WorstCaseNames.identifier("pk");
        List<MssqlSwapRenamer.Carry> carries = List.of(
                new MssqlSwapRenamer.Carry(new MssqlCarriedObject(Kind.INDEX, index, "NONCLUSTERED INDEX ([a] ASC)", null, false),
                        CarriedObjectNames.onShadow(names, index)),
                new MssqlSwapRenamer.Carry(new MssqlCarriedObject(Kind.PRIMARY_KEY, key, "PRIMARY KEY CLUSTERED ([a] ASC)", null, true),
                        CarriedObjectNames.onShadow(names, key)));

        renamer.renameTable(SCHEMA, TABLE, names.backupTable());
        renamer.renameTable(SCHEMA, names.shadowTable(), TABLE);
        renamer.carry(SCHEMA, names.backupTable(), TABLE, carries, n -> CarriedObjectNames.onBackup(names, n));

        assertThat(recording.sent()).hasSize(6).allSatisfy(s -> {
            assertThat(s.problems()).isEmpty();
            assertThat(((String) s.parameter(1)).length()).isLessThanOrEqualTo(SP_RENAME_OBJNAME);
            assertThat(((String) s.parameter(2)).length()).isBetween(1, MssqlIdentifiers.MAX_LENGTH);
            assertThat(TsqlStatementRules.identifiers("SELECT " + s.parameter(1)))
                    .allSatisfy(part -> assertThat(part.length()).isBetween(1, MssqlIdentifiers.MAX_LENGTH));
        });
    }

    @Test
    void stampTableLookupAndWriterBlockStatementsObeyTheGrammarAndTheirNamesFitSysname() throws SQLException {
        RecordingConnection recording = new RecordingConnection();
        MssqlShadowStamp.write(recording.connection(), SCHEMA, names.shadowTable(), MssqlShadowStamp.shadow("rk"));
        MssqlShadowStamp.drop(recording.connection(), SCHEMA, names.shadowTable());
        MssqlTables.exists(recording.connection(), SCHEMA, TABLE);
        MssqlSwapSteps.blockWriters(recording.connection(), SCHEMA, TABLE);

        assertThat(recording.sent()).hasSizeGreaterThanOrEqualTo(5)
                .allSatisfy(s -> assertThat(s.problems()).as(s.sql()).isEmpty());
        // sp_addextendedproperty's @name, @level0name and @level1name are sysname (128).
        assertThat(recording.sent()).filteredOn(s -> s.sql().contains("extendedproperty @name"))
                .isNotEmpty().allSatisfy(s -> s.parameters().values().stream()
                        .filter(v -> !v.equals(MssqlShadowStamp.shadow("rk")))
                        .forEach(v -> assertThat(((String) v).length()).isLessThanOrEqualTo(MssqlIdentifiers.MAX_LENGTH)));
    }

    private static BackfillCampaignSpec spec() {
        BackfillCampaignSpec s = CampaignReader.parse(CampaignYamlFixture.mssql()).spec();
        s.getTarget().setType(TargetType.MSSQL);
        s.getTarget().setSchema(SCHEMA);
        s.getTarget().setTable(TABLE);
        s.getPublication().setArtifactScope(ArtifactScope.CAMPAIGN);
        s.setBackfillId("worst-case");
        return s;
    }

    /** {@code n} worst-case columns: the first an identity, every third with a named default. */
    private static List<MssqlCatalogColumn> columns(int n) {
        List<MssqlCatalogColumn> columns = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            boolean identity = i == 0;
            String defaultName = i % 3 == 1 ? WorstCaseNames.identifier("df" + i) : null;
            columns.add(new MssqlCatalogColumn(i + 1, WorstCaseNames.identifier("c" + i), identity ? "bigint" : "nvarchar",
                    identity ? 8 : 200, 0, 0, !identity, identity ? null : "Latin1_General_100_CI_AS_SC_UTF8", identity,
                    identity ? "1" : null, identity ? "1" : null, defaultName,
                    defaultName == null ? null : "(N'it''s ]?{fn x}')", null, false));
        }
        return columns;
    }

    /**
     * A catalog as sys.indexes / sys.index_columns / sys.check_constraints / sys.default_constraints describe a table
     * with a 16-column clustered primary key, a filtered unique index with 16 keys and 1,008 included columns, a
     * unique constraint, a check and a default, all named with 128 worst-case characters, plus a columnstore.
     */
    private static RecordingConnection catalogOfAWorstCaseTable() {
        List<Map<String, Object>> indexColumns = new ArrayList<>();
        for (int index = 1; index <= 3; index++) {
            for (int k = 0; k < MAX_KEY_COLUMNS; k++) {
                indexColumns.add(row("index_id", index, "name", WorstCaseNames.identifier("k" + k),
                        "is_descending_key", k % 2 == 0, "is_included_column", false));
            }
        }
        for (int c = MAX_KEY_COLUMNS; c < MAX_COLUMNS; c++) {
            indexColumns.add(row("index_id", 2, "name", WorstCaseNames.identifier("c" + c),
                    "is_descending_key", false, "is_included_column", true));
        }
        List<Map<String, Object>> indexes = List.of(
                index(1, WorstCaseNames.identifier("pk"), 1, true, true, false, null),
                index(2, WorstCaseNames.identifier("ix"), 2, true, false, false, "([k0] IS NOT NULL AND [k1]=N'a''b]')"),
                index(3, WorstCaseNames.identifier("uq"), 2, true, false, true, null),
                index(4, WorstCaseNames.identifier("ccs"), 5, false, false, false, null));
        return new RecordingConnection()
                .answer("sys.index_columns", indexColumns)
                .answer("FROM sys.indexes AS i", indexes)
                .answer("sys.check_constraints", List.of(row("name", WorstCaseNames.identifier("ck"),
                        "definition", "([k0]>(0) AND [k1]<>N'?''{')")))
                .answer("sys.default_constraints", List.of(row("name", WorstCaseNames.identifier("df"),
                        "definition", "(N'x')", "column_name", WorstCaseNames.identifier("k3"))))
                .answer("sys.foreign_keys", List.of());
    }

    private static Map<String, Object> index(int id, String name, int type, boolean unique, boolean primaryKey,
                                             boolean uniqueConstraint, String filter) {
        return row("index_id", id, "name", name, "type", type, "is_unique", unique, "is_primary_key", primaryKey,
                "is_unique_constraint", uniqueConstraint, "has_filter", filter != null, "filter_definition", filter,
                "fill_factor", 80, "is_padded", true, "ignore_dup_key", false, "allow_row_locks", true,
                "allow_page_locks", false);
    }

    private static Map<String, Object> row(Object... labelsAndValues) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < labelsAndValues.length; i += 2) {
            row.put((String) labelsAndValues[i], labelsAndValues[i + 1]);
        }
        return row;
    }
}
