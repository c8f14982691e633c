package io.dpone.backfill.core.manifest;

import io.dpone.backfill.testsupport.RepositoryRoot;
import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.dpone.backfill.core.campaign.CampaignYamlFixture.postgres;
import static io.dpone.backfill.core.campaign.CampaignYamlFixture.replaceOnce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Issue 40: a manifest means exactly what it says or is refused naming the field. The hostile forms found by trying
 * 155 campaigns against the newest fields, each refused here before binding, with its field, line and column.
 */
class PlainYamlTest {
    private static FieldError refusal(String yaml) {
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(yaml));
        assertThat(e).as("refused:\n" + yaml).isNotNull();
        assertThat(e.errors()).hasSize(1);
        FieldError error = e.errors().get(0);
        assertThat(error.message()).as("no parser class names").doesNotContain("org.yaml", "com.fasterxml", "Exception");
        return error;
    }

    private static String withColumns(String columns) {
        return postgres() + "  columns:\n" + columns;
    }

    @Test
    void anAliasIsRefusedWhereItIsUsedInsteadOfBeingReadAsAColumnNamedByTheAlias() {
        FieldError e = refusal(withColumns("    naming: exact\n    pairs:\n      list_price: *p\n"));
        assertThat(e.path()).isEqualTo("spec.columns.pairs.list_price");
        assertThat(e.rule()).isEqualTo("alias");
        assertThat(e.message()).contains("*p").contains("line 34, column 19");
    }

    @Test
    void anAnchorIsRefusedEvenWhenNothingRefersToIt() {
        FieldError e = refusal(replaceOnce(postgres(), "    table: events\n  target:", "    table: &t events\n  target:"));
        assertThat(e.path()).isEqualTo("spec.source.table");
        assertThat(e.rule()).isEqualTo("anchor");
    }

    @Test
    void aMergeKeyIsRefusedInsteadOfBecomingAColumnNamedLessLess() {
        FieldError e = refusal(withColumns("    pairs:\n      <<: {a: b}\n"));
        assertThat(e.path()).isEqualTo("spec.columns.pairs");
        assertThat(e.rule()).isEqualTo("merge-key");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "true", "null", "1.5", "~", "0x1F", "-2", ".inf", "FALSE"})
    void aKeyThatYamlReadsAsANumberBooleanOrNullIsRefusedAndQuotingItIsSuggested(String key) {
        FieldError e = refusal(withColumns("    pairs:\n      " + key + ": source_col\n"));
        assertThat(e.path()).isEqualTo("spec.columns.pairs");
        assertThat(e.rule()).isEqualTo("key-type");
        assertThat(e.message()).contains("quote it");
    }

    @Test
    void quotedKeysAndYesOnOffAreNamesAsTheYaml12CoreSchemaSays() {
        assertThat(PlainYaml.coreType("yes")).isNull();
        assertThat(PlainYaml.coreType("on")).isNull();
        assertThat(PlainYaml.coreType("1e3")).isEqualTo("a float");
        assertThat(PlainYaml.coreType("0o17")).isEqualTo("an integer");
        assertThat(PlainYaml.coreType("1_000")).as("not an integer in 1.2").isNull();
        PlainYaml.check("pairs:\n  \"1\": a\n  'true': b\n  yes: c\n");
    }

    @Test
    void aNameEndingInANoBreakSpaceIsRefusedShowingTheCharacter() {
        FieldError e = refusal(replaceOnce(postgres(), "    table: events\n  uniqueKey", "    table: events\u00A0\n  uniqueKey"));
        assertThat(e.path()).isEqualTo("spec.target.table");
        assertThat(e.rule()).isEqualTo("whitespace");
        assertThat(e.message()).contains("events\\u00A0");
    }

    @Test
    void anEnumValueWithATrailingSpaceIsRefusedNotTrimmed() {
        FieldError e = refusal(replaceOnce(postgres(), "    mode: shadow_swap", "    mode: \"shadow_swap \""));
        assertThat(e.path()).isEqualTo("spec.publication.mode");
        assertThat(e.rule()).isEqualTo("whitespace");
    }

    @Test
    void aZeroWidthCharacterAtTheStartOfAKeyIsRefused() {
        FieldError e = refusal(withColumns("    pairs:\n      \"\u200Bprice\": list_price\n"));
        assertThat(e.path()).isEqualTo("spec.columns.pairs.\u200Bprice");
        assertThat(e.rule()).isEqualTo("whitespace");
    }

    @Test
    void anExplicitTagIsRefused() {
        FieldError e = refusal(replaceOnce(postgres(), "  parallelWorkers: 4", "  parallelWorkers: !!int \"4\""));
        assertThat(e.path()).isEqualTo("spec.parallelWorkers");
        assertThat(e.rule()).isEqualTo("tag");
    }

    @Test
    void aTabInTheIndentationNamesItsLineColumnAndField() {
        FieldError e = refusal(replaceOnce(postgres(), "    mode: shadow_swap", "\tmode: shadow_swap"));
        assertThat(e.rule()).isEqualTo("yaml-syntax");
        assertThat(e.message()).contains("line 30, column 1").contains("in spec.publication");
    }

    @Test
    void aNulByteIsRefusedAsASyntaxErrorNamingTheFieldBeingRead() {
        FieldError e = refusal(replaceOnce(postgres(), "    schema: analytics", "    schema: analy\u0000tics"));
        assertThat(e.rule()).isEqualTo("yaml-syntax");
        assertThat(e.message()).contains("special characters are not allowed");
    }

    @Test
    void theExampleCampaignsArePlainYaml() throws Exception {
        try (var files = java.nio.file.Files.list(RepositoryRoot.resolve("examples"))) {
            for (java.nio.file.Path file : files.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                for (String document : java.nio.file.Files.readString(file).split("(?m)^---\\s*$")) {
                    PlainYaml.check(document);
                }
            }
        }
    }
}
