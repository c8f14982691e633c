package io.dpone.backfill.core.campaign;

import io.dpone.backfill.testsupport.RepositoryRoot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * src-docs/manifest-reference.md carries the spec table exactly as {@link ManifestReference} generates it from the
 * model, like the committed CRD: a field added, renamed or re-bounded without regenerating the page fails here.
 * Regenerate with {@code -Dmanifest.update=true} and review the diff; the prose around the table is kept.
 */
class ManifestReferenceTest {
    static final Path PAGE = RepositoryRoot.resolve("src-docs", "manifest-reference.md");

    @BeforeAll
    static void updateOnRequest() throws IOException {
        if (Boolean.getBoolean("manifest.update")) {
            Files.writeString(PAGE, ManifestReference.regenerate(Files.readString(PAGE)));
        }
    }

    @Test
    void thePageCarriesTheTableTheModelGenerates() throws IOException {
        String page = Files.readString(PAGE);
        assertThat(page).as(PAGE + " differs from the model: regenerate with -Dmanifest.update=true and review the diff")
                .isEqualTo(ManifestReference.regenerate(page));
    }

    @Test
    void everySpecFieldIsDocumentedWithADescription() {
        var fields = ManifestReference.fields();
        assertThat(fields).hasSizeGreaterThan(25);
        assertThat(fields).allSatisfy(f -> assertThat(f.description()).as(f.path() + ": @JsonPropertyDescription").isNotBlank());
        assertThat(fields).extracting(ManifestReference.Field::path).doesNotHaveDuplicates()
                .contains("spec.backfillId", "spec.chunk.buckets", "spec.lane.resources.limits.memory", "spec.suspend");
    }

    @Test
    void everyNoteNamesAFieldTheModelHas() {
        assertThat(ManifestReference.unknownNotePaths()).as("ManifestNotes for fields the model no longer has").isEmpty();
    }

    @Test
    void typesDefaultsAndBoundsComeFromTheModel() {
        var byPath = ManifestReference.fields().stream()
                .collect(java.util.stream.Collectors.toMap(ManifestReference.Field::path, f -> f));
        assertThat(byPath.get("spec.parallelWorkers")).extracting(ManifestReference.Field::type, ManifestReference.Field::defaultValue,
                ManifestReference.Field::bounds).containsExactly("integer", "`4`", "1.." + BackfillCampaignSpec.MAX_PARALLEL_WORKERS);
        assertThat(byPath.get("spec.chunk.buckets").defaultValue()).isEqualTo("`" + ChunkSpec.DEFAULT_BUCKETS + "`");
        assertThat(byPath.get("spec.target.type").type()).isEqualTo("`mssql` | `postgres`");
        assertThat(byPath.get("spec.target.type").defaultValue()).isEqualTo("required");
        assertThat(byPath.get("spec.uniqueKey").bounds()).isEqualTo("1.." + BackfillCampaignSpec.MAX_UNIQUE_KEY_COLUMNS + " items");
        assertThat(byPath.get("spec.backfillId").bounds()).contains(BackfillCampaignSpec.BACKFILL_ID_PATTERN);
        assertThat(byPath.get("spec.state.schema").defaultValue()).isEqualTo("`" + StateSpec.DEFAULT_SCHEMA + "`");
    }
}
