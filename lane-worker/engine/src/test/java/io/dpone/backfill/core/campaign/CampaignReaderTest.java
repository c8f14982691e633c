package io.dpone.backfill.core.campaign;

import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static io.dpone.backfill.core.campaign.CampaignYamlFixture.mssql;
import static io.dpone.backfill.core.campaign.CampaignYamlFixture.postgres;
import static io.dpone.backfill.core.campaign.CampaignYamlFixture.replaceOnce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class CampaignReaderTest {

    private static List<FieldError> rejectionOf(String yaml) {
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(yaml));
        assertThat(e).as("campaign should have been rejected").isNotNull();
        return e.errors();
    }

    private static void assertRejected(String yaml, String path, String rule) {
        assertThat(rejectionOf(yaml)).anySatisfy(e -> {
            assertThat(e.path()).isEqualTo(path);
            assertThat(e.rule()).isEqualTo(rule);
        });
    }

    @Test
    void readsTheReferenceShapedMssqlCampaignWithEveryField() {
        CampaignDefinition d = CampaignReader.parse(mssql());
        BackfillCampaignSpec s = d.spec();
        assertThat(d.name()).isEqualTo("orders-initial");
        assertThat(d.namespace()).isEqualTo("data-platform");
        assertThat(s.getBackfillId()).isEqualTo("orders_initial_typed_v1");
        assertThat(s.getTarget().getType()).isEqualTo(TargetType.MSSQL);
        assertThat(s.getUniqueKey()).containsExactly("id");
        assertThat(s.getChunk().getKind()).isEqualTo(ChunkKind.UUID);
        assertThat(s.getChunk().getBuckets()).isEqualTo(512);
        assertThat(s.getParallelWorkers()).isEqualTo(4);
        assertThat(s.getState().getSchema()).isEqualTo("system");
        assertThat(s.getPublication().getMode()).isEqualTo(PublicationMode.SHADOW_SWAP);
        assertThat(s.getPublication().getArtifactScope()).isEqualTo(ArtifactScope.CAMPAIGN);
        assertThat(s.getLane().getResources().getLimits().getMemory()).isEqualTo("2Gi");
        assertThat(s.getSuspend()).isFalse();
    }

    @Test
    void fillsTheReferenceDefaultsForOmittedFields() {
        BackfillCampaignSpec s = CampaignReader.parse(postgres()).spec();
        assertThat(s.getSource().getType()).isEqualTo(SourceType.POSTGRES);
        assertThat(s.getInnerMode()).isEqualTo(InnerMode.INCREMENTAL_APPEND);
        assertThat(s.getOnlyNewRows()).isFalse();
        assertThat(s.getRetryPolicy()).isEqualTo(RetryPolicy.NON_COMMITTED);
        assertThat(s.getMaxChunkAttempts()).isEqualTo(5);
        assertThat(s.getState().getBackend()).isEqualTo(StateBackend.AUDIT_SCHEMA);
        assertThat(s.getState().getSchema()).isEqualTo("backfill_state");
        assertThat(s.getState().getRequireDistributedLock()).isTrue();
        assertThat(s.getPublication().getRetainBackup()).isTrue();
        assertThat(s.getPublication().getArtifactScope()).isEqualTo(ArtifactScope.STABLE);
        assertThat(s.getLane().getMaxPodFailures()).isEqualTo(3);
    }

    @Test
    void publicationModeDefaultsToDirect() {
        String yaml = replaceOnce(postgres(), "  publication:\n    mode: shadow_swap\n", "");
        assertThat(CampaignReader.parse(yaml).spec().getPublication().getMode()).isEqualTo(PublicationMode.DIRECT);
    }

    @Test
    void targetSchemaDefaultsPerEngine() {
        String mssqlYaml = replaceOnce(mssql(), "    schema: dbo\n", "");
        assertThat(CampaignReader.parse(mssqlYaml).spec().getTarget().getSchema()).isEqualTo("dbo");
        String pgYaml = replaceOnce(postgres(), "    schema: analytics\n", "");
        assertThat(CampaignReader.parse(pgYaml).spec().getTarget().getSchema()).isEqualTo("public");
    }

    @Test
    void rejectsAnUnknownFieldNamingItsPath() {
        assertRejected(replaceOnce(mssql(), "  parallelWorkers: 4\n", "  parallelWorkers: 4\n  colour: red\n"),
                "spec.colour", "unknown-field");
    }

    @Test
    void rejectsAnUnknownNestedField() {
        assertRejected(replaceOnce(mssql(), "    buckets: 512\n", "    buckets: 512\n    bucket: 3\n"),
                "spec.chunk.bucket", "unknown-field");
    }

    @Test
    void rejectsAQuotedNumberForAnInteger() {
        assertRejected(replaceOnce(mssql(), "buckets: 512", "buckets: \"64\""), "spec.chunk.buckets", "wrong-type");
    }

    @Test
    void rejectsAFloatForAnInteger() {
        assertRejected(replaceOnce(mssql(), "buckets: 512", "buckets: 64.0"), "spec.chunk.buckets", "wrong-type");
    }

    @Test
    void rejectsANumberTooLargeForAnInteger() {
        assertRejected(replaceOnce(mssql(), "buckets: 512", "buckets: 99999999999"), "spec.chunk.buckets", "range");
    }

    @Test
    void rejectsAQuotedBoolean() {
        assertRejected(replaceOnce(mssql(), "suspend: false", "suspend: \"false\""), "spec.suspend", "wrong-type");
    }

    @Test
    void rejectsANumberWhereAnIdentifierIsExpected() {
        assertRejected(replaceOnce(mssql(), "    table: orders\n  target:", "    table: 12\n  target:"),
                "spec.source.table", "wrong-type");
    }

    @Test
    void rejectsADuplicateKeyNamingIt() {
        assertRejected(replaceOnce(mssql(), "  parallelWorkers: 4\n", "  parallelWorkers: 4\n  parallelWorkers: 8\n"),
                "spec.parallelWorkers", "duplicate-key");
    }

    @Test
    void rejectsADuplicateKeyInANestedMapping() {
        assertRejected(replaceOnce(mssql(), "    kind: uuid\n", "    kind: uuid\n    kind: integer\n"),
                "spec.chunk.kind", "duplicate-key");
    }

    @Test
    void rejectsASecondYamlDocument() {
        assertRejected(mssql() + "---\napiVersion: v1\nkind: Secret\n", "", "single-document");
    }

    @Test
    void reportsMalformedYamlAsASyntaxErrorWithItsLine() {
        List<FieldError> errors = rejectionOf(replaceOnce(mssql(), "    column: id\n", "    column: id\n   broken: [\n"));
        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.rule()).isEqualTo("yaml-syntax");
            assertThat(e.message()).contains("line");
        });
    }

    @Test
    void rejectsAnEmptyFile() {
        assertRejected("# nothing here\n", "", "empty");
    }

    @Test
    void rejectsAMissingUniqueKey() {
        assertRejected(replaceOnce(mssql(), "  uniqueKey: [id]\n", ""), "spec.uniqueKey", "required");
    }

    @Test
    void rejectsAnEmptyUniqueKey() {
        assertRejected(replaceOnce(mssql(), "uniqueKey: [id]", "uniqueKey: []"), "spec.uniqueKey", "required");
    }

    @Test
    void rejectsAUniqueKeyColumnListedTwice() {
        assertRejected(replaceOnce(mssql(), "uniqueKey: [id]", "uniqueKey: [id, id]"), "spec.uniqueKey[1]", "unique-items");
    }

    @Test
    void acceptsPhysicalChunksWithoutAColumn() {
        CampaignDefinition d = CampaignReader.parse(replaceOnce(mssql(), "    column: id\n    kind: uuid\n", "    kind: physical\n"));
        assertThat(d.spec().getChunk().getKind()).isEqualTo(ChunkKind.PHYSICAL);
        assertThat(d.spec().getChunk().getColumn()).isNull();
        assertThat(d.spec().getChunk().getBuckets()).isEqualTo(512);
    }

    @Test
    void rejectsAChunkColumnWithPhysicalChunksSayingWhy() {
        List<FieldError> errors = rejectionOf(replaceOnce(mssql(), "    kind: uuid\n", "    kind: physical\n"));
        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.chunk.column");
            assertThat(e.rule()).isEqualTo("kind");
            assertThat(e.message()).contains("must be absent for kind physical").contains("block ranges");
        });
    }

    @Test
    void rejectsIntegerBoundsWithPhysicalChunks() {
        String physical = replaceOnce(mssql(), "    column: id\n    kind: uuid\n", "    kind: physical\n    lowerBound: 1\n    upperBound: 9\n");
        assertRejected(physical, "spec.chunk.lowerBound", "kind");
        assertRejected(physical, "spec.chunk.upperBound", "kind");
    }

    @Test
    void rejectsAnUnknownChunkKindListingPhysical() {
        List<FieldError> errors = rejectionOf(replaceOnce(mssql(), "    kind: uuid\n", "    kind: blocks\n"));
        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.chunk.kind");
            assertThat(e.message()).contains("physical");
        });
    }

    @Test
    void rejectsAMissingChunkColumn() {
        assertRejected(replaceOnce(mssql(), "    column: id\n", ""), "spec.chunk.column", "required");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "16385"})
    void rejectsBucketsOutsideOneToTheDocumentedMaximum(String buckets) {
        assertRejected(replaceOnce(mssql(), "buckets: 512", "buckets: " + buckets), "spec.chunk.buckets", "range");
    }

    @Test
    void acceptsTheDocumentedMaximumOfBuckets() {
        String yaml = replaceOnce(mssql(), "buckets: 512", "buckets: " + ChunkSpec.MAX_BUCKETS);
        assertThat(CampaignReader.parse(yaml).spec().getChunk().getBuckets()).isEqualTo(16384);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-3", "65"})
    void rejectsParallelWorkersOutsideOneToTheDocumentedMaximum(String workers) {
        assertRejected(replaceOnce(mssql(), "parallelWorkers: 4", "parallelWorkers: " + workers), "spec.parallelWorkers", "range");
    }

    @Test
    void rejectsAnUnknownTargetTypeListingTheKnownOnes() {
        List<FieldError> errors = rejectionOf(replaceOnce(mssql(), "type: mssql", "type: oracle"));
        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.target.type");
            assertThat(e.rule()).isEqualTo("enum");
            assertThat(e.message()).contains("mssql", "postgres");
        });
    }

    @Test
    void rejectsAMissingTargetType() {
        assertRejected(replaceOnce(mssql(), "    type: mssql\n", ""), "spec.target.type", "required");
    }

    @Test
    void rejectsTheSourceTableAsTarget() {
        String yaml = replaceOnce(replaceOnce(replaceOnce(postgres(), "name: warehouse-postgres", "name: app-postgres"),
                "schema: analytics", "schema: public"), "    table: events\n  uniqueKey", "    table: events\n  uniqueKey");
        assertRejected(yaml, "spec.target.table", "source-is-target");
    }

    @Test
    void acceptsTheSameTableNameInAnotherDatabase() {
        String yaml = replaceOnce(postgres(), "schema: analytics", "schema: public");
        assertThat(CampaignReader.parse(yaml).spec().getTarget().getTable()).isEqualTo("events");
    }

    @Test
    void rejectsShadowSwapWithAnIncrementalInnerMode() {
        assertRejected(replaceOnce(mssql(), "innerMode: incremental_append", "innerMode: incremental_merge"),
                "spec.innerMode", "shadow-swap-route");
    }

    @Test
    void rejectsShadowSwapWithOnlyNewRows() {
        assertRejected(replaceOnce(mssql(), "onlyNewRows: false", "onlyNewRows: true"), "spec.onlyNewRows", "shadow-swap-route");
    }

    @Test
    void rejectsShadowSwapWithoutTheDistributedLock() {
        assertRejected(replaceOnce(mssql(), "requireDistributedLock: true", "requireDistributedLock: false"),
                "spec.state.requireDistributedLock", "shadow-swap-route");
    }

    @Test
    void rejectsDirectModeWithAnIncrementalInnerModeToo() {
        String yaml = replaceOnce(replaceOnce(mssql(), "mode: shadow_swap", "mode: direct"),
                "innerMode: incremental_append", "innerMode: replace");
        assertRejected(yaml, "spec.innerMode", "initial-load-only");
    }

    @Test
    void rejectsAutomaticBackupDeletion() {
        assertRejected(replaceOnce(mssql(), "retainBackup: true", "retainBackup: false"),
                "spec.publication.retainBackup", "backup-retention");
    }

    @Test
    void rejectsAnUnknownPublicationMode() {
        assertRejected(replaceOnce(mssql(), "mode: shadow_swap", "mode: swap"), "spec.publication.mode", "enum");
    }

    @Test
    void rejectsIntegerChunksWithoutPlannedBounds() {
        assertRejected(replaceOnce(postgres(), "    lowerBound: 1\n", ""), "spec.chunk.lowerBound", "required");
    }

    @Test
    void rejectsIntegerBoundsInTheWrongOrder() {
        assertRejected(replaceOnce(postgres(), "upperBound: 50000000", "upperBound: 0"), "spec.chunk.upperBound", "bounds");
    }

    @Test
    void rejectsMoreIntegerBucketsThanKeys() {
        assertRejected(replaceOnce(postgres(), "upperBound: 50000000", "upperBound: 100"), "spec.chunk.buckets", "bounds");
    }

    @Test
    void rejectsPlannedBoundsOnUuidChunks() {
        assertRejected(replaceOnce(mssql(), "    buckets: 512\n", "    buckets: 512\n    lowerBound: 5\n"),
                "spec.chunk.lowerBound", "kind");
    }

    @Test
    void rejectsAnInvalidBackfillId() {
        assertRejected(replaceOnce(mssql(), "backfillId: orders_initial_typed_v1", "backfillId: \"orders initial\""),
                "spec.backfillId", "pattern");
    }

    @Test
    void rejectsAnInvalidSecretName() {
        assertRejected(replaceOnce(mssql(), "name: archive-mssql", "name: Archive_MSSQL"),
                "spec.target.connectionSecretRef.name", "dns-subdomain");
    }

    @Test
    void rejectsAWrongKind() {
        assertRejected(replaceOnce(mssql(), "kind: BackfillCampaign", "kind: Deployment"), "kind", "kind");
    }

    @Test
    void rejectsACampaignNameTooLongForLanePodNames() {
        assertRejected(replaceOnce(mssql(), "name: orders-initial", "name: " + "o".repeat(46)), "metadata.name", "dns-label");
    }

    @Test
    void rejectsAnInvalidResourceQuantity() {
        assertRejected(replaceOnce(mssql(), "memory: 2Gi", "memory: lots"), "spec.lane.resources.limits.memory", "quantity");
    }

    @Test
    void reportsEveryStructuralErrorAtOnce() {
        String yaml = replaceOnce(replaceOnce(mssql(), "buckets: 512", "buckets: 0"), "parallelWorkers: 4", "parallelWorkers: 99");
        assertThat(rejectionOf(yaml)).extracting(FieldError::path)
                .contains("spec.chunk.buckets", "spec.parallelWorkers");
    }

    @Test
    void rejectionMessageNamesFieldAndRule() {
        assertThatThrownBy(() -> CampaignReader.parse(replaceOnce(mssql(), "buckets: 512", "buckets: 0")))
                .isInstanceOf(CampaignRejectedException.class)
                .hasMessageContaining("spec.chunk.buckets")
                .hasMessageContaining("[range]");
    }
}
