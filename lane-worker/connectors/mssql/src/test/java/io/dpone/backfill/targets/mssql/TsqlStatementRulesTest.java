package io.dpone.backfill.targets.mssql;

import org.junit.jupiter.api.Test;

import java.util.Collections;

import static org.assertj.core.api.Assertions.assertThat;

/** Each rule of {@link TsqlStatementRules} refuses a statement that breaks it, and only that one. */
class TsqlStatementRulesTest {
    @Test
    void aWellFormedStatementBreaksNoRule() {
        assertThat(TsqlStatementRules.problems("SELECT CONCAT(N'a]?', [b]]c], N'it''s') FROM [dbo].[t] WHERE x = ? -- ]?\n"))
                .isEmpty();
    }

    @Test
    void aBracketThatWasNotDoubledIsAStrayBracket() {
        assertThat(TsqlStatementRules.problems("SELECT [a]b] FROM t")).anyMatch(p -> p.startsWith("quoting:"));
    }

    @Test
    void anUnclosedLiteralOrIdentifierIsRefused() {
        assertThat(TsqlStatementRules.problems("SELECT N'abc FROM t")).anyMatch(p -> p.startsWith("quoting:"));
        assertThat(TsqlStatementRules.problems("SELECT [abc FROM t")).anyMatch(p -> p.startsWith("quoting:"));
    }

    @Test
    void anIdentifierOf129CharactersIsRefusedAnd128Pass() {
        String ok = "x".repeat(128);
        assertThat(TsqlStatementRules.problems("SELECT 1 FROM [" + ok + "]")).isEmpty();
        assertThat(TsqlStatementRules.problems("SELECT 1 FROM [" + ok + "x]"))
                .anyMatch(p -> p.startsWith("identifier length:"));
        assertThat(TsqlStatementRules.problems("SELECT 1 FROM []")).anyMatch(p -> p.startsWith("identifier length:"));
    }

    @Test
    void unbalancedParenthesesAreRefused() {
        assertThat(TsqlStatementRules.problems("SELECT (1")).anyMatch(p -> p.startsWith("parentheses:"));
        assertThat(TsqlStatementRules.problems("SELECT 1)")).anyMatch(p -> p.startsWith("parentheses:"));
    }

    @Test
    void markersAreCountedWhereTheDriverCountsThemAndMoreThan2100AreRefused() {
        assertThat(TsqlStatementRules.parameterMarkers("SELECT ? , N'?', [?], \"?\" /* ? */ -- ?\n, ?")).isEqualTo(2);
        String markers = String.join(", ", Collections.nCopies(2101, "?"));
        assertThat(TsqlStatementRules.problems("SELECT " + markers)).anyMatch(p -> p.startsWith("parameters:"));
        assertThat(TsqlStatementRules.problems("SELECT " + markers.substring(3))).isEmpty();
    }

    @Test
    void concatTakesTwoTo254Arguments() {
        String args254 = String.join(", ", Collections.nCopies(254, "N','"));
        assertThat(TsqlStatementRules.problems("SELECT CONCAT(" + args254 + ")")).isEmpty();
        assertThat(TsqlStatementRules.problems("SELECT CONCAT(" + args254 + ", 1)")).anyMatch(p -> p.startsWith("CONCAT:"));
        assertThat(TsqlStatementRules.problems("SELECT CONCAT(1)")).anyMatch(p -> p.startsWith("CONCAT:"));
        // Nested calls count their own arguments only.
        assertThat(TsqlStatementRules.problems("SELECT CONCAT(CONCAT(" + args254 + "), 1)")).isEmpty();
    }

    @Test
    void createSchemaOrViewAfterAnotherStatementIsRefusedButNotInsideDynamicSql() {
        assertThat(TsqlStatementRules.problems("CREATE VIEW v AS SELECT 1")).isEmpty();
        assertThat(TsqlStatementRules.problems("IF SCHEMA_ID(N's') IS NULL CREATE SCHEMA [s]"))
                .anyMatch(p -> p.startsWith("batch-first statement:"));
        assertThat(TsqlStatementRules.problems("IF SCHEMA_ID(N's') IS NULL EXEC (N'CREATE SCHEMA [s]')")).isEmpty();
    }

    @Test
    void aGoLineIsRefused() {
        assertThat(TsqlStatementRules.problems("SELECT 1\nGO\nSELECT 2")).anyMatch(p -> p.startsWith("no GO:"));
        assertThat(TsqlStatementRules.problems("SELECT 1 AS [GO]")).isEmpty();
    }
}
