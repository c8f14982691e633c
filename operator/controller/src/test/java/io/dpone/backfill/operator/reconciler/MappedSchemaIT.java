package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27 through the operator: a campaign whose target names its columns in PascalCase ({@code spec.columns})
 * and whose live table another table references by a foreign key publishes with lane pods, equal to its source,
 * and the referencing key checks against the published table afterwards.
 */
class MappedSchemaIT extends OperatorSuite {
    @Test
    void aMappedCampaignWithAnInboundForeignKeyPublishesThroughTheOperator() throws Exception {
        harness(10);
        h.db.source.execute("CREATE TABLE public.albums (album_id bigint PRIMARY KEY, title text NOT NULL)",
                "INSERT INTO public.albums SELECT i, 'Album ' || i FROM generate_series(1, 1500) i");
        h.db.target.execute("CREATE TABLE public.\"Albums\" (\"AlbumId\" bigint PRIMARY KEY, \"Title\" text NOT NULL)",
                "CREATE TABLE public.\"Tracks\" (\"TrackId\" bigint PRIMARY KEY, \"AlbumId\" bigint"
                        + " CONSTRAINT \"FK_TracksAlbumId\" REFERENCES public.\"Albums\")");
        String yaml = CampaignYaml.campaign("albums_mapped_v1").name("albums").namespace(OperatorHarness.NS)
                .table("albums").uniqueKey("album_id").parallelWorkers(2).shadowSwap()
                .chunk("{column: album_id, kind: integer, buckets: 4, lowerBound: 1, upperBound: 1500}")
                .extraSpec("  columns: {naming: snake-to-pascal}\n").render()
                .replace("table: albums}\n  uniqueKey", "table: Albums}\n  uniqueKey");
        h.startOperator("operator-a");
        h.apply(Serialization.unmarshal(yaml, BackfillCampaign.class));

        h.awaitPhase("albums", CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));
        assertThat(h.db.target.queryForStrings("SELECT \"AlbumId\" || '|' || \"Title\" FROM public.\"Albums\" ORDER BY 1"))
                .isEqualTo(h.db.source.queryForStrings("SELECT album_id || '|' || title FROM public.albums ORDER BY 1"));
        assertThat(h.status("albums").getPublication().getContentCheck()).isEqualTo("content");
        h.db.target.execute("INSERT INTO public.\"Tracks\" VALUES (1, 1500)");
        assertThat(h.db.target.queryForString("SELECT c.relname FROM pg_constraint k JOIN pg_class c ON c.oid = k.confrelid"
                + " WHERE k.conname = 'FK_TracksAlbumId'")).as("the key follows the published table").isEqualTo("Albums");
    }
}
