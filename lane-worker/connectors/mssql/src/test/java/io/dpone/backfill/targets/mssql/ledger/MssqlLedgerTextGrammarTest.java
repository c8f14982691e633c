package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.mssql.MssqlAppLock;
import io.dpone.backfill.targets.mssql.TsqlStatementRules;
import io.dpone.backfill.targets.mssql.WorstCaseNames;
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

    /**
     * Issue 39: names the identifier rules accept but that carry SQL, format or placeholder syntax. Rendered with such
     * a state schema, every ledger statement and script batch (and the dynamic SQL it EXECs) parses to the same code
     * as with a plain name once identifiers and literals are blanked: the name changed nothing but the names.
     */
    @Test
    void aHostileStateSchemaChangesNothingButTheNamesInEveryStatementAndBatch() throws Exception {
        List<String> corpus = List.of("a${schema}b", "${schema_in_literal}", "st%1$s%n%%", "x -- y", "a;b GO c", "a/*b",
                "q?{fn now()}", "non-BMP \uD83D\uDE00", "\u00e9t\u00e9", "EXEC (N'x')", WorstCaseNames.ofLength("long", 128));
        List<String> plain = rendered("plain");
        for (String name : corpus) {
            List<String> hostile = rendered(name);
            assertThat(hostile).hasSameSizeAs(plain);
            for (int i = 0; i < plain.size(); i++) {
                assertThat(TsqlStatementRules.problems(hostile.get(i))).as(hostile.get(i)).isEmpty();
                assertThat(TsqlStatementRules.code(hostile.get(i))).as(name + " in\n" + hostile.get(i))
                        .isEqualTo(TsqlStatementRules.code(plain.get(i)));
            }
        }
    }

    /** Every rendered statement, every script batch and the text every EXEC runs, for state schema {@code schema}. */
    private static List<String> rendered(String schema) throws Exception {
        List<String> all = new ArrayList<>();
        MssqlLedgerText statements = new MssqlLedgerText(schema);
        List<Method> rendering = new ArrayList<>();
        for (Method m : MssqlLedgerText.class.getDeclaredMethods()) {
            if (m.getReturnType() == String.class && m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers())
                    && !Modifier.isPrivate(m.getModifiers())) {
                rendering.add(m);
            }
        }
        rendering.sort(java.util.Comparator.comparing(Method::getName));
        for (Method m : rendering) {
            all.add((String) m.invoke(statements));
        }
        for (String batch : MssqlLedgerSchema.batches(schema)) {
            all.add(batch);
            TsqlStatementRules.literals(batch).stream().filter(l -> l.startsWith("CREATE ")).forEach(all::add);
        }
        return all;
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
