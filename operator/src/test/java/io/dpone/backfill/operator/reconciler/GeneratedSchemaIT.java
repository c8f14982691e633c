package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.cli.plan.GenerateCommand;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27 through the operator: `backfill generate` writes the campaigns of a small schema written twice (snake_case
 * source, PascalCase target, foreign keys album -> artist and track -> album), and applying them one at a time in
 * file order, each to HandoffCommitted, publishes every table equal to its source with its keys on live tables.
 */
class GeneratedSchemaIT extends OperatorSuite {
    @Test
    void theGeneratedCampaignsOfASchemaPublishItTableByTableThroughTheOperator() throws Exception {
        harness(10);
        h.db.source.execute(
                "CREATE TABLE public.artist (artist_id integer PRIMARY KEY, name varchar(120))",
                "CREATE TABLE public.album (album_id integer PRIMARY KEY, title varchar(160) NOT NULL,"
                        + " artist_id integer NOT NULL REFERENCES public.artist)",
                "CREATE TABLE public.track (track_id integer PRIMARY KEY, name varchar(200) NOT NULL,"
                        + " album_id integer REFERENCES public.album)",
                "INSERT INTO public.artist SELECT i, 'Artist ' || i FROM generate_series(1, 275) i",
                "INSERT INTO public.album SELECT i, 'Album ' || i, 1 + i % 275 FROM generate_series(1, 347) i",
                "INSERT INTO public.track SELECT i, 'Track ' || i, 1 + i % 347 FROM generate_series(1, 3503) i",
                "ANALYZE");
        h.db.target.execute(
                "CREATE TABLE public.\"Artist\" (\"ArtistId\" integer PRIMARY KEY, \"Name\" varchar(120))",
                "CREATE TABLE public.\"Album\" (\"AlbumId\" integer PRIMARY KEY, \"Title\" varchar(160) NOT NULL,"
                        + " \"ArtistId\" integer NOT NULL REFERENCES public.\"Artist\")",
                "CREATE TABLE public.\"Track\" (\"TrackId\" integer PRIMARY KEY, \"Name\" varchar(200) NOT NULL,"
                        + " \"AlbumId\" integer REFERENCES public.\"Album\")");
        Path secrets = Files.writeString(logs.resolve("secrets.yaml"), """
                apiVersion: v1
                kind: Secret
                metadata: {name: src-db}
                stringData: {jdbcUrl: "%s"}
                ---
                apiVersion: v1
                kind: Secret
                metadata: {name: tgt-db}
                stringData: {jdbcUrl: "%s"}
                """.formatted(h.db.source.jdbcUrl(), h.db.target.jdbcUrl()));
        Path out = logs.resolve("campaigns");
        StringWriter printed = new StringWriter();
        CommandLine cli = new CommandLine(new GenerateCommand());
        cli.setOut(new PrintWriter(printed));
        int exit = cli.execute("--source-secret", "src-db", "--target-secret", "tgt-db", "--naming",
                "snake-to-pascal", "--prefix", "music", "--parallel-workers", "2", "--secrets", secrets.toString(),
                "--out", out.toString());
        assertThat(exit).isZero();
        List<Path> files;
        try (Stream<Path> listed = Files.list(out)) {
            files = listed.sorted().toList();
        }
        assertThat(files).extracting(p -> p.getFileName().toString())
                .containsExactly("1-artist.yaml", "2-album.yaml", "3-track.yaml");

        h.startOperator("operator-a");
        for (Path file : files) {
            BackfillCampaign campaign = Serialization.unmarshal(Files.readString(file), BackfillCampaign.class);
            campaign.getMetadata().setNamespace(OperatorHarness.NS);
            h.apply(campaign);
            h.awaitPhase(campaign.getMetadata().getName(), CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));
        }
        assertThat(h.db.target.queryForStrings("SELECT concat_ws('|', \"TrackId\", \"Name\", \"AlbumId\") FROM public.\"Track\" ORDER BY 1"))
                .isEqualTo(h.db.source.queryForStrings("SELECT concat_ws('|', track_id, name, album_id) FROM public.track ORDER BY 1"));
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM public.\"Artist\"")).isEqualTo(275);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM public.\"Album\"")).isEqualTo(347);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid"
                + " JOIN pg_class r ON r.oid = k.confrelid WHERE k.contype = 'f' AND k.convalidated"
                + " AND t.relname IN ('Album', 'Track') AND r.relname IN ('Artist', 'Album')"))
                .as("both keys on live tables, validated").isEqualTo(2);
    }
}
