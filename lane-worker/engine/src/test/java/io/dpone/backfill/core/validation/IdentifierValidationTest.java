package io.dpone.backfill.core.validation;

import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.campaign.IdentifierLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class IdentifierValidationTest {

    /** Puts {@code table} as the target table of the campaign; JSON-style escapes keep odd characters exact. */
    private static List<FieldError> targetTableErrors(String table, String fixture) {
        String escaped = table.codePoints().mapToObj(cp -> cp < 0x20 || cp > 0x7e || cp == '"' || cp == '\\'
                ? (Character.isBmpCodePoint(cp) ? String.format("\\u%04X", cp)
                        : String.format("\\u%04X\\u%04X", (int) Character.highSurrogate(cp), (int) Character.lowSurrogate(cp)))
                : new String(Character.toChars(cp))).reduce("", String::concat);
        String yaml = CampaignYamlFixture.replaceOnce(fixture, "    table: orders\n  uniqueKey",
                "    table: \"" + escaped + "\"\n  uniqueKey");
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(yaml));
        return e == null ? List.of() : e.errors();
    }

    private static List<FieldError> mssqlTarget(String table) {
        return targetTableErrors(table, CampaignYamlFixture.mssql());
    }

    private static List<FieldError> postgresTarget(String table) {
        String pg = CampaignYamlFixture.replaceOnce(CampaignYamlFixture.mssql(), "type: mssql", "type: postgres");
        return targetTableErrors(table, pg);
    }

    private static void assertIdentifierError(List<FieldError> errors, String fragment) {
        assertThat(errors).anySatisfy(e -> {
            assertThat(e.path()).isEqualTo("spec.target.table");
            assertThat(e.rule()).isEqualTo("identifier");
            assertThat(e.message()).contains(fragment);
        });
    }

    @Test
    void rejectsAnEmptyIdentifier() {
        assertIdentifierError(mssqlTarget(""), "must not be empty");
    }

    @Test
    void rejectsNul() {
        assertIdentifierError(mssqlTarget("ord\u0000ers"), "NUL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ord\u0001ers", "ord\ners", "ord\u001bers", "ord\u007fers", "ord\u0085ers"})
    void rejectsControlCharacters(String table) {
        assertIdentifierError(mssqlTarget(table), "control character");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ord\u202eers", "ord\u202aers", "ord\u2066ers", "ord\u2069ers", "ord\u200fers", "ord\u061cers", "ord\u200bers"})
    void rejectsBidirectionalAndInvisibleFormatCharacters(String table) {
        assertIdentifierError(mssqlTarget(table), "format character");
    }

    @ParameterizedTest
    @ValueSource(strings = {"orders\"; DROP TABLE x; --", "orders'", "ord`ers"})
    void rejectsQuotesThatWouldBreakQuoting(String table) {
        assertIdentifierError(mssqlTarget(table), "quote");
    }

    @ParameterizedTest
    @ValueSource(strings = {"orders]; DROP TABLE x; --", "[orders"})
    void rejectsBracketsThatWouldBreakMssqlQuoting(String table) {
        assertIdentifierError(mssqlTarget(table), "brackets");
    }

    @Test
    void rejectsSurroundingWhitespaceBeforeBindingNamingTheField() {
        assertThat(mssqlTarget(" orders")).anySatisfy(e -> {
            assertThat(e.path()).isEqualTo("spec.target.table");
            assertThat(e.rule()).isEqualTo("whitespace");
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"orders\u00A0", "\u2007orders", "orders\u200B", "\uFEFForders", "orders\u3000"})
    void anIdentifierThatArrivesWithoutYamlIsRefusedForAnInvisibleEdgeToo(String name) {
        assertThat(IdentifierRules.problem(name)).hasValueSatisfying(p -> assertThat(p).contains("whitespace or an invisible"));
    }

    @Test
    void countsPostgresLimitInUtf8Bytes() {
        // 32 two-byte characters: 32 characters but 64 bytes, one over PostgreSQL's 63.
        String table = "é".repeat(32);
        assertIdentifierError(postgresTarget(table), "64 bytes (UTF-8) long; postgres allows at most 63");
        assertThat(postgresTarget("é".repeat(31))).isEmpty();
    }

    @Test
    void acceptsSixtyThreeBytesOnPostgres() {
        assertThat(postgresTarget("t".repeat(63))).isEmpty();
    }

    @Test
    void countsMssqlLimitInCharacters() {
        assertIdentifierError(mssqlTarget("t".repeat(129)), "129 characters long; mssql allows at most 128");
        // 128 two-byte characters are 256 UTF-8 bytes, yet only 128 characters: fine for SQL Server.
        assertThat(mssqlTarget("é".repeat(128))).isEmpty();
    }

    @Test
    void appliesThePostgresLimitToSourceIdentifiersEvenForMssqlTargets() {
        String yaml = CampaignYamlFixture.replaceOnce(CampaignYamlFixture.mssql(), "    table: orders\n  target:",
                "    table: " + "s".repeat(64) + "\n  target:");
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(yaml));
        assertThat(e.errors()).anySatisfy(err -> {
            assertThat(err.path()).isEqualTo("spec.source.table");
            assertThat(err.rule()).isEqualTo("identifier");
        });
    }

    @Test
    void appliesBothEnginesLimitsToKeyColumns() {
        String yaml = CampaignYamlFixture.replaceOnce(CampaignYamlFixture.mssql(), "uniqueKey: [id]", "uniqueKey: [" + "k".repeat(64) + "]");
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(yaml));
        assertThat(e.errors()).anySatisfy(err -> assertThat(err.path()).isEqualTo("spec.uniqueKey[0]"));
    }

    @Test
    void validatesTheStateSchemaAgainstTheTargetEngine() {
        String yaml = CampaignYamlFixture.replaceOnce(CampaignYamlFixture.mssql(), "schema: system", "schema: \"sys]tem\"");
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(yaml));
        assertThat(e.errors()).anySatisfy(err -> assertThat(err.path()).isEqualTo("spec.state.schema"));
    }

    @Test
    void keepsDerivedNamesOfALongestValidTableWithinTheLimit() {
        // A 63-byte PostgreSQL table is valid; its shadow and backup names must be valid too, so no error.
        assertThat(postgresTarget("t".repeat(63))).isEmpty();
        assertThat(mssqlTarget("t".repeat(128))).isEmpty();
    }

    @Test
    void derivedNameCheckUsesTheSameRules() {
        assertThat(IdentifierRules.problem("t".repeat(64), IdentifierLimit.POSTGRES)).isPresent();
        assertThat(IdentifierRules.problem("t".repeat(63), IdentifierLimit.POSTGRES)).isEmpty();
    }
}
