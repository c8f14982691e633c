package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.targets.mssql.TsqlStatementRules;
import io.dpone.backfill.targets.mssql.WorstCaseNames;
import io.dpone.backfill.targets.mssql.types.Columns;
import io.dpone.backfill.targets.mssql.types.MssqlColumn;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A pass's T-SQL rendered for worst-case names (128-character schema, table and column names holding {@code ]},
 * quotes, {@code ?} and non-BMP characters; a 16-column key, SQL Server's limit) and checked against
 * {@link TsqlStatementRules}; each statement's parameter markers are exactly the values the pass binds, in the order
 * its javadoc gives. Nothing here ran on SQL Server.
 */
class MssqlPassStatementsGrammarTest {
    private static final String SCHEMA = WorstCaseNames.identifier("schema");
    private static final String TABLE = WorstCaseNames.identifier("table");
    private static final String STATE = WorstCaseNames.identifier("state");

    private static List<MssqlColumn> columns(int n, int keys) {
        List<MssqlColumn> columns = new ArrayList<>();
        String[] types = {"bigint", "nvarchar(200)", "decimal(12,2)", "varchar(30)", "bit", "datetimeoffset(6)", "varbinary(max)"};
        for (int i = 0; i < n; i++) {
            columns.add(Columns.target(WorstCaseNames.identifier("c" + i), i < keys ? (i % 2 == 0 ? "int" : "nvarchar(40)")
                    : types[i % types.length]));
        }
        return columns;
    }

    private static MssqlPassStatements statements(int n, int keys) {
        List<MssqlColumn> columns = columns(n, keys);
        return new MssqlPassStatements(SCHEMA, TABLE, new MssqlReconcileTables(STATE), columns,
                columns.subList(0, keys).stream().map(MssqlColumn::name).toList(), WorstCaseNames.identifier("rv"));
    }

    @Test
    void everyStatementOfAPassOverWorstCaseNamesObeysTheGrammarAndBindsWhatThePassBinds() {
        MssqlPassStatements sql = statements(64, 16);
        Map<String, Integer> markers = new java.util.LinkedHashMap<>();
        markers.put(sql.createRows(), 0);
        markers.put(sql.createKeys(MssqlPassStatements.GONE), 0);
        markers.put(sql.createWrote(), 0);
        markers.put(sql.createDeleted(), 0);
        markers.put(sql.createKeys(MssqlPassStatements.OTHERS), 0);
        markers.put(sql.readKeys(WorstCaseNames.identifier("c3")), 2);
        markers.put(sql.readKeys(null), 2);
        markers.put(sql.absentRows(), 0);
        markers.put(sql.unmatched(MssqlPassStatements.GONE, MssqlPassStatements.PUBLISHED_KEYS, MssqlPassStatements.SOURCE_KEYS), 0);
        markers.put(MssqlPassStatements.ranges(MssqlPassStatements.MISSING), 0);
        markers.put(sql.requeue(MssqlPassStatements.OTHERS, "CASE WHEN " + MssqlPassStatements.changed("bf_k."
                + MssqlPassStatements.SHA) + " THEN N'a' ELSE N'b' END", null), 3);
        markers.put(sql.update(), 5);
        markers.put(sql.insert(), 2);
        markers.put(sql.rememberWrittenUpdate(), 1);
        markers.put(sql.rememberWrittenInsert(), 2);
        markers.put(sql.delete(), 5);
        markers.put(sql.settleWritten(), 2);
        markers.put(sql.settleDeleted(), 2);
        markers.put(sql.requeue(MssqlPassStatements.OTHERS, "N'reason'", null), 3);
        markers.put(sql.enqueue(MssqlPassStatements.MISSING, "N'reason'", sql.stillMissing() + " AND NOT "
                + sql.accepted("bf_k." + MssqlPassStatements.SHA)), 5);
        markers.put(sql.receipt(), 8);
        markers.put(sql.receiptExists(), 3);
        markers.put(MssqlPassStatements.drop(MssqlPassStatements.ROWS), 0);
        for (String ddl : new MssqlReconcileTables(STATE).ddl()) {
            markers.put(ddl, 0);
        }
        markers.forEach((statement, expected) -> {
            assertThat(TsqlStatementRules.problems(statement)).as(statement).isEmpty();
            assertThat(TsqlStatementRules.parameterMarkers(statement)).as(statement).isEqualTo(expected);
        });
    }

    @Test
    void writesToThePublishedTableHoldUpdateAndRangeLocksAndNeverUseMerge() {
        MssqlPassStatements sql = statements(8, 2);
        assertThat(List.of(sql.update(), sql.insert(), sql.delete())).allSatisfy(s -> {
            assertThat(s).contains("WITH (UPDLOCK, SERIALIZABLE)").doesNotContainIgnoringCase("MERGE");
        });
        // The OUTPUT records what each write did, so the versions it wrote are known as the product's.
        assertThat(sql.update()).contains("OUTPUT ").contains(" INTO " + MssqlPassStatements.WROTE);
        assertThat(sql.insert()).contains("OUTPUT ").contains(" INTO " + MssqlPassStatements.WROTE);
        assertThat(sql.delete()).contains("OUTPUT ").contains(" INTO " + MssqlPassStatements.DELETED);
    }

    @Test
    void aRowIsRewrittenOnlyWhereAColumnDiffersByteForByteTextIncluded() {
        MssqlPassStatements sql = statements(4, 1);
        String update = sql.update();
        assertThat(update).contains("EXCEPT SELECT");
        // Text columns compare as bytes: a case-insensitive collation must not hide 'abc' -> 'ABC'.
        assertThat(update).contains("CAST(bf_s.[" + WorstCaseNames.identifier("c1").replace("]", "]]") + "] AS varbinary(max))");
        assertThat(update).doesNotContain("CAST(bf_s.[" + WorstCaseNames.identifier("c2").replace("]", "]]") + "] AS varbinary(max))");
    }

    /**
     * A pass holds no key in memory: which published rows are the product's is asked of the published table's read
     * (a rowversion is one write's, so the version alone names what a pass wrote), and which keys each side lacks is
     * an anti-join of staged tables on the keys' SHA-256, never a comparison under the table's collation.
     */
    @Test
    void ownershipAndTheKeysEachSideLacksAreAnsweredByTheServerNotHeldInMemory() {
        MssqlPassStatements sql = statements(4, 2);
        assertThat(sql.readKeys(null)).contains(" < ? OR EXISTS (SELECT 1 FROM ").contains(".[reconcile_written] AS bf_w")
                .contains("bf_w.run_key = ? AND bf_w.row_version = CAST(bf_t.");
        String gone = sql.unmatched(MssqlPassStatements.GONE, MssqlPassStatements.PUBLISHED_KEYS, MssqlPassStatements.SOURCE_KEYS);
        assertThat(gone).startsWith("INSERT INTO " + MssqlPassStatements.GONE)
                .contains("FROM " + MssqlPassStatements.PUBLISHED_KEYS + " AS bf_k WHERE NOT EXISTS (SELECT 1 FROM "
                        + MssqlPassStatements.SOURCE_KEYS + " AS bf_o WHERE bf_o." + MssqlPassStatements.SHA + " = bf_k."
                        + MssqlPassStatements.SHA + ")")
                .contains("NOT EXISTS (SELECT 1 FROM " + MssqlPassStatements.ROWS + " AS bf_x WHERE bf_x."
                        + MssqlPassStatements.SHA + " = bf_k." + MssqlPassStatements.SHA + ")");
        assertThat(new MssqlReconcileTables(STATE).ddl()).anySatisfy(ddl ->
                assertThat(ddl).contains("CREATE INDEX reconcile_written_version").contains("(run_key, row_version)"));
    }

    @Test
    void aTableWhoseKeyIsEveryColumnIsOnlyInsertedNeverUpdated() {
        assertThat(statements(2, 2).update()).isNull();
    }

    @Test
    void aTableNamedAsOneOfTheStatementsAliasesIsRefusedNamingIt() {
        List<MssqlColumn> columns = columns(2, 1);
        assertThatThrownBy(() -> new MssqlPassStatements("dbo", "BF_S", new MssqlReconcileTables("s"), columns,
                List.of(columns.get(0).name()), "rv")).hasMessageContaining("[dbo].[BF_S]").hasMessageContaining("bf_s");
    }
}
