package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.cli.plan.GenerateCommand;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PrinterColumns;
import io.dpone.backfill.cli.kubectl.KubectlCommand;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
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
        createSchema();
        Path out = generate("--no-group");
        List<Path> files = files(out);
        assertThat(files).extracting(p -> p.getFileName().toString())
                .containsExactly("1-artist.yaml", "2-album.yaml", "3-track.yaml");

        h.startOperator("operator-a");
        for (Path file : files) {
            BackfillCampaign campaign = apply(file);
            h.awaitPhase(campaign.getMetadata().getName(), CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));
        }
        assertPublished(2);
    }

    /**
     * With a foreign-key cycle (an artist's featured album) no table can publish alone: generated with their
     * publication group, the first campaign applied validates and waits in a named state (AwaitingGroup, naming the
     * members it waits for), and once the others are applied the group publishes in one transaction.
     */
    @Test
    void theGeneratedCampaignsOfOneGroupWaitForEachOtherAndPublishTheSchemaWithItsCycleThroughTheOperator() throws Exception {
        harness(10);
        createSchema();
        h.db.source.execute("ALTER TABLE public.artist ADD COLUMN featured_album_id integer",
                "UPDATE public.artist SET featured_album_id = 1 + artist_id % 347");
        h.db.target.execute("ALTER TABLE public.\"Artist\" ADD COLUMN \"FeaturedAlbumId\" integer"
                + " CONSTRAINT \"FK_ArtistFeaturedAlbumId\" REFERENCES public.\"Album\"");
        List<Path> files = files(generate());
        h.startOperator("operator-a");
        BackfillCampaign first = apply(files.get(0));
        String name = first.getMetadata().getName();
        Await.until(Duration.ofSeconds(60), () -> h.status(name) != null && ConditionSet.find(h.status(name).getConditions(),
                CampaignConditions.AWAITING_GROUP).map(c -> "True".equals(c.getStatus())).orElse(false),
                () -> String.valueOf(h.status(name)));
        BackfillCampaignStatus waiting = h.status(name);
        assertThat(waiting.getPhase()).isEqualTo(CampaignPhase.Publishing);
        assertThat(ConditionSet.find(waiting.getConditions(), CampaignConditions.AWAITING_GROUP).orElseThrow().getMessage())
                .contains("publication group music: 1 of 3 members ready").contains("no campaign of the group for it yet");
        assertThat(ConditionSet.find(waiting.getConditions(), CampaignConditions.RECONCILING).orElseThrow().getReason())
                .isEqualTo(CampaignConditions.AWAITING_GROUP);
        String table = PrinterColumns.table(h.get(name));
        assertThat(table).contains("Publishing").contains("AwaitingGroup").contains("music");
        StringWriter plugin = new StringWriter();
        CommandLine kubectl = new CommandLine(new KubectlCommand(context -> new KubernetesClientBuilder()
                .withConfig(h.client.getConfiguration()).build()));
        kubectl.setOut(new PrintWriter(plugin)).setErr(new PrintWriter(plugin));
        assertThat(kubectl.execute("status", name, "-n", OperatorHarness.NS)).as(plugin.toString()).isZero();
        assertThat(plugin.toString()).contains("Publishing");
        System.out.println("$ kubectl get bfc " + name + " -n " + OperatorHarness.NS + " -o wide\n" + table
                + "\n\n$ kubectl backfill status " + name + " -n " + OperatorHarness.NS + "\n" + plugin);
        h.awaitEvents(CampaignConditions.AWAITING_GROUP);

        for (Path file : files.subList(1, files.size())) {
            apply(file);
        }
        for (Path file : files) {
            h.awaitPhase(Serialization.unmarshal(Files.readString(file), BackfillCampaign.class).getMetadata().getName(),
                    CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));
        }
        assertPublished(3);
        assertThat(h.db.target.queryForStrings("SELECT concat_ws('|', \"ArtistId\", \"FeaturedAlbumId\") FROM public.\"Artist\" ORDER BY 1"))
                .isEqualTo(h.db.source.queryForStrings("SELECT concat_ws('|', artist_id, featured_album_id) FROM public.artist ORDER BY 1"));
        assertThat(ConditionSet.find(h.status(name).getConditions(), CampaignConditions.AWAITING_GROUP).orElseThrow().getReason())
                .isEqualTo("GroupPublished");
    }

    private void createSchema() throws Exception {
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
    }

    /** {@code backfill generate} over the two databases, as a user runs it; returns the directory it wrote. */
    private Path generate(String... more) throws Exception {
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
        List<String> args = new java.util.ArrayList<>(List.of("--source-secret", "src-db", "--target-secret", "tgt-db",
                "--naming", "snake-to-pascal", "--prefix", "music", "--parallel-workers", "2", "--secrets", secrets.toString(),
                "--out", out.toString()));
        args.addAll(List.of(more));
        int exit = cli.execute(args.toArray(String[]::new));
        assertThat(exit).as(printed.toString()).isZero();
        return out;
    }

    private static List<Path> files(Path out) throws Exception {
        try (Stream<Path> listed = Files.list(out)) {
            return listed.sorted().toList();
        }
    }

    private BackfillCampaign apply(Path file) throws Exception {
        BackfillCampaign campaign = Serialization.unmarshal(Files.readString(file), BackfillCampaign.class);
        campaign.getMetadata().setNamespace(OperatorHarness.NS);
        h.apply(campaign);
        return campaign;
    }

    /** Every table equal to its source; {@code keys} foreign keys between the three tables, on live tables, validated. */
    private void assertPublished(int keys) throws Exception {
        assertThat(h.db.target.queryForStrings("SELECT concat_ws('|', \"TrackId\", \"Name\", \"AlbumId\") FROM public.\"Track\" ORDER BY 1"))
                .isEqualTo(h.db.source.queryForStrings("SELECT concat_ws('|', track_id, name, album_id) FROM public.track ORDER BY 1"));
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM public.\"Artist\"")).isEqualTo(275);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM public.\"Album\"")).isEqualTo(347);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid"
                + " JOIN pg_class r ON r.oid = k.confrelid WHERE k.contype = 'f' AND k.convalidated"
                + " AND t.relname IN ('Artist', 'Album', 'Track') AND r.relname IN ('Artist', 'Album')"))
                .as("the keys on live tables, validated").isEqualTo(keys);
    }
}
