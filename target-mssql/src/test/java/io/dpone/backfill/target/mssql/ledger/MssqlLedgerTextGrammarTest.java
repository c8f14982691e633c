package io.dpone.backfill.target.mssql.ledger;

import io.dpone.backfill.target.mssql.MssqlAppLock;
import io.dpone.backfill.target.mssql.TsqlStatementRules;
import io.dpone.backfill.target.mssql.WorstCaseNames;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every ledger statement and every batch of the ledger script, rendered for a 128-character state schema holding
 * {@code ]}, {@code '}, {@code ?} and non-BMP characters, against {@link TsqlStatementRules}. The statements are
 * found by reflection, so a statement added later is checked without a test change.
 */
class MssqlLedgerTextGrammarTest {
    private static final String SCHEMA = WorstCaseNames.identifier("state");

    @Test
    void everyLedgerStatementObeysTheGrammarForAWorstCaseSchema() throws Exception {
        MssqlLedgerText statements = new MssqlLedgerText(SCHEMA);
        List<Method> rendering = new ArrayList<>();
        for (Method m : MssqlLedgerText.class.getDeclaredMethods()) {
            if (m.getReturnType() == String.class && m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers())
                    && !Modifier.isPrivate(m.getModifiers())) {
                rendering.add(m);
            }
        }
        assertThat(rendering).hasSizeGreaterThan(40);
        for (Method m : rendering) {
            String sql = (String) m.invoke(statements);
            assertThat(TsqlStatementRules.problems(sql)).as(m.getName() + ": " + sql).isEmpty();
        }
        assertThat(TsqlStatementRules.problems(MssqlLedgerText.sessionSettings(30_000))).isEmpty();
    }

    @Test
    void theLargestMultiRowStatementStaysWithin2100Parameters() {
        String sql = new MssqlLedgerText(SCHEMA).recordEstimates(MssqlLedgerText.ROWS_PER_STATEMENT);

        // Two per row plus the run key: the count the store binds (MssqlChunkStatements.recordEstimates).
        assertThat(TsqlStatementRules.parameterMarkers(sql)).isEqualTo(MssqlLedgerText.ROWS_PER_STATEMENT * 2 + 1);
        assertThat(TsqlStatementRules.problems(sql)).isEmpty();
    }

    @Test
    void everyLedgerScriptBatchObeysTheGrammarAndCreatesTheSchemaOnlyInDynamicSql() {
        List<String> batches = MssqlLedgerSchema.batches(SCHEMA);

        assertThat(batches).isNotEmpty().allSatisfy(b -> assertThat(TsqlStatementRules.problems(b)).as(b).isEmpty());
    }

    @Test
    void theDriverLockNameOfAWorstCaseSchemaAndRunKeyFitsSpGetapplock() {
        String name = new MssqlLedgerText(SCHEMA).driverLockName("rk-" + "9".repeat(300));

        assertThat(name.length()).isLessThanOrEqualTo(MssqlAppLock.MAX_NAME_LENGTH);
    }
}
