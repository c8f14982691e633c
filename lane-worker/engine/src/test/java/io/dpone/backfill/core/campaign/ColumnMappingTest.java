package io.dpone.backfill.core.campaign;

import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.dpone.backfill.core.campaign.CampaignYamlFixture.mssql;
import static io.dpone.backfill.core.campaign.CampaignYamlFixture.replaceOnce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Which source column loads which target column (issue 27): pairs first, then the naming rule; strict about both. */
class ColumnMappingTest {
    private static final List<String> SOURCE = List.of("album_id", "title", "artist_id", "unit_price", "x");

    private static ColumnMapping mapping(ColumnNaming naming, Map<String, String> pairs) {
        ColumnsSpec spec = new ColumnsSpec();
        spec.setNaming(naming);
        spec.setMap(pairs);
        return ColumnMapping.of(spec);
    }

    @Test
    void theNamingRulesNameTargetColumnsAfterSourceColumns() {
        assertThat(ColumnNaming.SNAKE_TO_PASCAL.targetName("album_id")).isEqualTo("AlbumId");
        assertThat(ColumnNaming.SNAKE_TO_CAMEL.targetName("album_id")).isEqualTo("albumId");
        assertThat(ColumnNaming.SNAKE_TO_PASCAL.targetName("id")).isEqualTo("Id");
        assertThat(ColumnNaming.SNAKE_TO_CAMEL.targetName("unit__price_")).isEqualTo("unitPrice");
        assertThat(ColumnNaming.CASE_INSENSITIVE.matches("album_id", "ALBUM_ID")).isTrue();
        assertThat(ColumnNaming.EXACT.matches("album_id", "ALBUM_ID")).isFalse();
        assertThat(ColumnNaming.fromWire("snake-to-pascal")).isEqualTo(ColumnNaming.SNAKE_TO_PASCAL);
    }

    @Test
    void anExplicitPairComesBeforeTheRuleAndTheRuleFillsTheRest() {
        ColumnMapping m = mapping(ColumnNaming.SNAKE_TO_PASCAL, Map.of("artist_id", "Composer"));
        LoadColumns loaded = m.pair(List.of("AlbumId", "Title", "Composer", "ArtistId", "UnitPrice", "Extra"), SOURCE);
        assertThat(loaded.target()).containsExactly("AlbumId", "Title", "Composer", "UnitPrice");
        assertThat(loaded.source()).containsExactly("album_id", "title", "artist_id", "unit_price");
        assertThat(loaded.targetKey(List.of("album_id"))).containsExactly("AlbumId");
        assertThat(loaded.describe()).isEqualTo("album_id -> AlbumId, title -> Title, artist_id -> Composer, unit_price -> UnitPrice");
        assertThat(m.targetOf("artist_id", List.of("ArtistId", "Composer"))).contains("Composer");
        assertThatThrownBy(() -> loaded.targetKey(List.of("x"))).hasMessageContaining("key column x loads no target column");
    }

    @Test
    void aRuleThatFindsTwoSourcesForOneTargetIsRefusedNamingTheField() {
        ColumnMapping m = mapping(ColumnNaming.CASE_INSENSITIVE, null);
        assertThatThrownBy(() -> m.pair(List.of("Name"), List.of("name", "NAME")))
                .hasMessageContaining("spec.columns.naming").hasMessageContaining("[name, NAME]");
        assertThatThrownBy(() -> m.targetOf("name", List.of("Name", "NAME"))).hasMessageContaining("spec.columns.map");
    }

    @Test
    void pairsNamingColumnsThatDoNotExistAreEachNamed() {
        ColumnMapping m = mapping(null, Map.of("album_id", "AlbumId", "gone", "Title"));
        assertThat(m.unknownColumns(SOURCE, List.of("Title")))
                .containsExactly("spec.columns.map.album_id: the target table has no column AlbumId",
                        "spec.columns.map.gone: the source table has no column gone");
    }

    @Test
    void noMappingMeansTheSameNames() {
        assertThat(ColumnMapping.of(null).sameNames()).isTrue();
        assertThat(mapping(ColumnNaming.EXACT, Map.of("a", "a")).sameNames()).isTrue();
        assertThat(ColumnMapping.of(null).pair(List.of("x", "title", "nope"), SOURCE).target()).containsExactly("x", "title");
    }

    @Test
    void theManifestCarriesTheMappingAndItChangesThePlanDigestAndRunKey() {
        String yaml = replaceOnce(mssql(), "  suspend: false", "  columns:\n    naming: snake-to-pascal\n"
                + "    map: {customer_ref: CustomerRef}\n  suspend: false");
        BackfillCampaignSpec spec = CampaignReader.parse(yaml).spec();
        assertThat(spec.getColumns().getNaming()).isEqualTo(ColumnNaming.SNAKE_TO_PASCAL);
        assertThat(spec.columnMapping().pairs()).containsEntry("customer_ref", "CustomerRef");
        CampaignBlueprint mapped = CampaignBlueprint.of(CampaignReader.parse(yaml));
        CampaignBlueprint plain = CampaignBlueprint.of(CampaignReader.parse(mssql()));
        assertThat(mapped.identity().planDigest()).isNotEqualTo(plain.identity().planDigest());
        assertThat(mapped.identity().runKey()).isNotEqualTo(plain.identity().runKey());
    }

    @Test
    void twoSourcesIntoOneTargetAndAnUnknownRuleAreRejectedNamingTheField() {
        String twoSources = replaceOnce(mssql(), "  suspend: false", "  columns:\n    map: {a: Same, b: Same}\n  suspend: false");
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(twoSources));
        assertThat(e.errors()).extracting(FieldError::path).contains("spec.columns.map.b");
        assertThat(e.errors()).extracting(FieldError::rule).contains("unique-values");

        String unknownRule = replaceOnce(mssql(), "  suspend: false", "  columns:\n    naming: kebab\n  suspend: false");
        CampaignRejectedException rule = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(unknownRule));
        assertThat(rule.errors()).extracting(FieldError::path).contains("spec.columns.naming");
    }

    /** Issue 36: target names compare as the target database compares them; source names exactly, always. */
    @Test
    void underACaseInsensitiveTargetPairsAndRulesFindTheColumnTheTargetWouldResolve() {
        ColumnMapping ci = mapping(ColumnNaming.SNAKE_TO_PASCAL, Map.of("x", "ExtraNote"))
                .under(io.dpone.backfill.core.campaign.IdentifierComparison.CASE_INSENSITIVE);
        List<String> lowered = List.of("albumid", "TITLE", "extranote");

        assertThat(ci.sourceOf("albumid", SOURCE)).contains("album_id");
        assertThat(ci.sourceOf("TITLE", SOURCE)).contains("title");
        assertThat(ci.targetOf("x", lowered)).as("an explicit pair finds the target's own spelling").contains("extranote");
        assertThat(ci.sourceOf("extranote", SOURCE)).contains("x");
        assertThat(ci.unknownColumns(SOURCE, lowered)).isEmpty();

        ColumnMapping exact = mapping(ColumnNaming.SNAKE_TO_PASCAL, Map.of("x", "ExtraNote"));
        assertThat(exact.sourceOf("albumid", SOURCE)).isEmpty();
        assertThat(exact.unknownColumns(SOURCE, lowered)).containsExactly(
                "spec.columns.map.x: the target table has no column ExtraNote");
    }
}
