package io.dpone.backfill.cli.certify;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.postgres.PostgresEndpoint;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Each scratch campaign is a valid campaign of 10 chunks and 4 lanes over the scratch tables, whatever the user's. */
class ScratchCampaignTest {
    private static CampaignBlueprint user(String targetType, String chunk) {
        return CampaignBlueprint.of(CampaignReader.parse("""
                apiVersion: backfill.dpone.io/v1alpha1
                kind: BackfillCampaign
                metadata: {name: orders-initial}
                spec:
                  backfillId: orders_v1
                  source: {type: postgres, connectionSecretRef: {name: src-db}, schema: sales, table: orders}
                  target: {type: %s, connectionSecretRef: {name: tgt-db}, table: orders}
                  uniqueKey: [id]
                  chunk: %s
                  parallelWorkers: 2
                  state: {schema: backfill_state}
                  publication: {mode: direct}
                """.formatted(targetType, chunk)));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "postgres | {column: id, kind: uuid, buckets: 512}",
            "mssql    | {column: id, kind: integer, buckets: 64, lowerBound: 1, upperBound: 1000000000}",
            "postgres | {kind: physical, buckets: 64}"})
    void derivesTenChunksFourLanesInTheScratchSchema(String targetType, String chunk) {
        CampaignBlueprint userCampaign = user(targetType, chunk);
        ConnectionSettings any = new ConnectionSettings("jdbc:postgresql://h/db", null, null, PostgresEndpoint.INSTANCE);
        Certification c = new Certification(new Certification.Settings(userCampaign, any, any, "bf_certify_t", 8000,
                Path.of("/tmp"), false, Duration.ofSeconds(60), null, null), line -> { });
        String[] bounds = chunk.contains("integer") ? new String[]{"17", "8017"} : null;

        var scratch = CampaignBlueprint.of(CampaignReader.parse(c.scratchCampaign("bf_certify_t_3", "lane-mid-copy", bounds)));
        var spec = scratch.definition().spec();

        assertThat(scratch.plan().size()).isEqualTo(10);
        assertThat(spec.getParallelWorkers()).isEqualTo(4);
        assertThat(spec.getBackfillId()).isEqualTo("bf_certify_t_3");
        assertThat(spec.getSource().getSchema()).isEqualTo("bf_certify_t");
        assertThat(spec.getSource().getTable()).isEqualTo(CertifyScratch.SOURCE_TABLE);
        assertThat(spec.getTarget().getTable()).isEqualTo(CertifyScratch.LIVE_TABLE);
        assertThat(scratch.artifacts().schema()).isEqualTo("bf_certify_t");
        assertThat(spec.getState().getSchema()).isEqualTo("bf_certify_t");
        assertThat(spec.getTarget().getConnectionSecretRef().getName()).isEqualTo("tgt-db");
        assertThat(spec.getChunk().getKind()).isEqualTo(userCampaign.definition().spec().getChunk().getKind());
        assertThat(spec.getPublication().getMode().wireName()).isEqualTo("shadow_swap");
        if (bounds != null) {
            assertThat(spec.getChunk().getLowerBound()).isEqualTo(17L);
            assertThat(spec.getChunk().getUpperBound()).isEqualTo(8017L);
        }
    }

    @org.junit.jupiter.api.Test
    void aCampaignsColumnMappingGoesIntoEveryScratchCampaign() {
        CampaignBlueprint userCampaign = CampaignBlueprint.of(CampaignReader.parse("""
                apiVersion: backfill.dpone.io/v1alpha1
                kind: BackfillCampaign
                metadata: {name: albums}
                spec:
                  backfillId: albums_v1
                  source: {type: postgres, connectionSecretRef: {name: src-db}, table: album}
                  target: {type: mssql, connectionSecretRef: {name: tgt-db}, table: Album}
                  uniqueKey: [album_id]
                  chunk: {column: album_id, kind: uuid, buckets: 8}
                  columns: {naming: snake-to-pascal, map: {"unit price": Price}}
                """));
        ConnectionSettings any = new ConnectionSettings("jdbc:postgresql://h/db", null, null, PostgresEndpoint.INSTANCE);
        Certification c = new Certification(new Certification.Settings(userCampaign, any, any, "bf_certify_t", 8000,
                Path.of("/tmp"), false, Duration.ofSeconds(60), null, null), line -> { });

        var spec = CampaignReader.parse(c.scratchCampaign("bf_certify_t_1", "clean", null)).spec();

        assertThat(spec.columnMapping().naming().wireName()).isEqualTo("snake-to-pascal");
        assertThat(spec.columnMapping().pairs()).containsEntry("unit price", "Price");
    }
}
