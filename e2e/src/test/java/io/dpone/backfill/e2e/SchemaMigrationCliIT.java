package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole schema through the CLI, PostgreSQL to PostgreSQL (issue 27): a music-store schema written twice, in
 * snake_case for the source and in PascalCase with its own types for the target, as two authors would; foreign keys
 * in both directions (a table referenced by others and referencing others), a self-reference, a composite key, and
 * one table without a primary key. {@code backfill generate} pairs the tables and writes the campaigns in
 * publication order; each runs in file order and publishes; every table ends equal to its source, with no edit to
 * either schema.
 */
class SchemaMigrationCliIT {
    private static final String[] SOURCE = {
            "CREATE TABLE public.artist (artist_id integer PRIMARY KEY, name varchar(120))",
            "CREATE TABLE public.album (album_id integer PRIMARY KEY, title varchar(160) NOT NULL,"
                    + " artist_id integer NOT NULL REFERENCES public.artist)",
            "CREATE TABLE public.genre (genre_id integer PRIMARY KEY, name varchar(120))",
            "CREATE TABLE public.track (track_id integer PRIMARY KEY, name varchar(200) NOT NULL, album_id integer REFERENCES public.album,"
                    + " genre_id integer REFERENCES public.genre, milliseconds integer NOT NULL, unit_price numeric(10,2) NOT NULL)",
            "CREATE TABLE public.employee (employee_id integer PRIMARY KEY, last_name varchar(20) NOT NULL,"
                    + " reports_to integer REFERENCES public.employee)",
            "CREATE TABLE public.customer (customer_id integer PRIMARY KEY, first_name varchar(40) NOT NULL, email varchar(60),"
                    + " support_rep_id integer REFERENCES public.employee)",
            "CREATE TABLE public.invoice (invoice_id integer PRIMARY KEY, customer_id integer NOT NULL REFERENCES public.customer,"
                    + " invoice_date timestamp NOT NULL, total numeric(10,2) NOT NULL)",
            "CREATE TABLE public.invoice_line (invoice_line_id integer PRIMARY KEY, invoice_id integer NOT NULL REFERENCES public.invoice,"
                    + " track_id integer NOT NULL REFERENCES public.track, unit_price numeric(10,2) NOT NULL, quantity integer NOT NULL)",
            "CREATE TABLE public.playlist (playlist_id integer PRIMARY KEY, name varchar(120))",
            "CREATE TABLE public.playlist_track (playlist_id integer REFERENCES public.playlist,"
                    + " track_id integer REFERENCES public.track, PRIMARY KEY (playlist_id, track_id))",
            "CREATE TABLE public.audit_note (noted_at timestamp, note text)",
            "INSERT INTO public.artist SELECT i, 'Artist ' || i FROM generate_series(1, 275) i",
            "INSERT INTO public.album SELECT i, 'Album ' || i, 1 + i % 275 FROM generate_series(1, 347) i",
            "INSERT INTO public.genre SELECT i, 'Genre ' || i FROM generate_series(1, 25) i",
            "INSERT INTO public.track SELECT i, 'Track ' || i, CASE WHEN i % 97 = 0 THEN NULL ELSE 1 + i % 347 END,"
                    + " 1 + i % 25, 120000 + i, 0.99 + (i % 2) FROM generate_series(1, 3503) i",
            "INSERT INTO public.employee VALUES (1, 'Adams', NULL), (2, 'Edwards', 1), (3, 'Peacock', 2), (4, 'Park', 2),"
                    + " (5, 'Johnson', 2), (6, 'Mitchell', 1), (7, 'King', 6), (8, 'Callahan', 6)",
            "INSERT INTO public.customer SELECT i, 'Customer ' || i, CASE WHEN i % 5 = 0 THEN NULL ELSE 'c' || i || '@example.org' END,"
                    + " 3 + i % 3 FROM generate_series(1, 59) i",
            "INSERT INTO public.invoice SELECT i, 1 + i % 59, timestamp '2021-01-01' + i * interval '17 hours', 0 FROM generate_series(1, 412) i",
            "INSERT INTO public.invoice_line SELECT i, 1 + i % 412, 1 + (i * 7) % 3503, 0.99, 1 + i % 3 FROM generate_series(1, 2240) i",
            "UPDATE public.invoice v SET total = (SELECT sum(unit_price * quantity) FROM public.invoice_line l WHERE l.invoice_id = v.invoice_id)",
            "INSERT INTO public.playlist SELECT i, 'Playlist ' || i FROM generate_series(1, 18) i",
            "INSERT INTO public.playlist_track SELECT p, t FROM generate_series(1, 18) p, generate_series(1, 3503) t WHERE (p * t) % 7 = 0",
            "ANALYZE"};
    /** The same schema as a SQL Server author writes it, on PostgreSQL: PascalCase, varchar lengths, its own keys. */
    private static final String[] TARGET = {
            "CREATE TABLE public.\"Artist\" (\"ArtistId\" integer PRIMARY KEY, \"Name\" varchar(120))",
            "CREATE TABLE public.\"Album\" (\"AlbumId\" integer PRIMARY KEY, \"Title\" varchar(160) NOT NULL,"
                    + " \"ArtistId\" integer NOT NULL CONSTRAINT \"FK_AlbumArtistId\" REFERENCES public.\"Artist\")",
            "CREATE TABLE public.\"Genre\" (\"GenreId\" integer PRIMARY KEY, \"Name\" varchar(120))",
            "CREATE TABLE public.\"Track\" (\"TrackId\" integer PRIMARY KEY, \"Name\" varchar(200) NOT NULL,"
                    + " \"AlbumId\" integer CONSTRAINT \"FK_TrackAlbumId\" REFERENCES public.\"Album\","
                    + " \"GenreId\" integer CONSTRAINT \"FK_TrackGenreId\" REFERENCES public.\"Genre\","
                    + " \"Milliseconds\" integer NOT NULL, \"UnitPrice\" numeric(10,2) NOT NULL)",
            "CREATE TABLE public.\"Employee\" (\"EmployeeId\" integer PRIMARY KEY, \"LastName\" varchar(20) NOT NULL,"
                    + " \"ReportsTo\" integer CONSTRAINT \"FK_EmployeeReportsTo\" REFERENCES public.\"Employee\")",
            "CREATE TABLE public.\"Customer\" (\"CustomerId\" integer PRIMARY KEY, \"FirstName\" varchar(40) NOT NULL,"
                    + " \"Email\" varchar(60), \"SupportRepId\" integer CONSTRAINT \"FK_CustomerSupportRepId\" REFERENCES public.\"Employee\")",
            "CREATE TABLE public.\"Invoice\" (\"InvoiceId\" integer PRIMARY KEY, \"CustomerId\" integer NOT NULL"
                    + " CONSTRAINT \"FK_InvoiceCustomerId\" REFERENCES public.\"Customer\", \"InvoiceDate\" timestamp NOT NULL,"
                    + " \"Total\" numeric(10,2) NOT NULL)",
            "CREATE TABLE public.\"InvoiceLine\" (\"InvoiceLineId\" integer PRIMARY KEY, \"InvoiceId\" integer NOT NULL"
                    + " CONSTRAINT \"FK_InvoiceLineInvoiceId\" REFERENCES public.\"Invoice\", \"TrackId\" integer NOT NULL"
                    + " CONSTRAINT \"FK_InvoiceLineTrackId\" REFERENCES public.\"Track\", \"UnitPrice\" numeric(10,2) NOT NULL,"
                    + " \"Quantity\" integer NOT NULL)",
            "CREATE TABLE public.\"Playlist\" (\"PlaylistId\" integer PRIMARY KEY, \"Name\" varchar(120))",
            "CREATE TABLE public.\"PlaylistTrack\" (\"PlaylistId\" integer CONSTRAINT \"FK_PlaylistTrackPlaylistId\""
                    + " REFERENCES public.\"Playlist\", \"TrackId\" integer CONSTRAINT \"FK_PlaylistTrackTrackId\""
                    + " REFERENCES public.\"Track\", CONSTRAINT \"PK_PlaylistTrack\" PRIMARY KEY (\"PlaylistId\", \"TrackId\"))",
            "CREATE TABLE public.\"AuditNote\" (\"NotedAt\" timestamp, \"Note\" text)"};
    /** Each table's rows, as text, column by column in the same order on both sides. */
    private static final Map<String, String[]> COMPARED = Map.of(
            "artist", new String[] {"artist_id, name", "\"Artist\"", "\"ArtistId\", \"Name\""},
            "album", new String[] {"album_id, title, artist_id", "\"Album\"", "\"AlbumId\", \"Title\", \"ArtistId\""},
            "genre", new String[] {"genre_id, name", "\"Genre\"", "\"GenreId\", \"Name\""},
            "track", new String[] {"track_id, name, album_id, genre_id, milliseconds, unit_price", "\"Track\"",
                    "\"TrackId\", \"Name\", \"AlbumId\", \"GenreId\", \"Milliseconds\", \"UnitPrice\""},
            "employee", new String[] {"employee_id, last_name, reports_to", "\"Employee\"", "\"EmployeeId\", \"LastName\", \"ReportsTo\""},
            "customer", new String[] {"customer_id, first_name, email, support_rep_id", "\"Customer\"",
                    "\"CustomerId\", \"FirstName\", \"Email\", \"SupportRepId\""},
            "invoice", new String[] {"invoice_id, customer_id, invoice_date, total", "\"Invoice\"",
                    "\"InvoiceId\", \"CustomerId\", \"InvoiceDate\", \"Total\""},
            "invoice_line", new String[] {"invoice_line_id, invoice_id, track_id, unit_price, quantity", "\"InvoiceLine\"",
                    "\"InvoiceLineId\", \"InvoiceId\", \"TrackId\", \"UnitPrice\", \"Quantity\""},
            "playlist", new String[] {"playlist_id, name", "\"Playlist\"", "\"PlaylistId\", \"Name\""},
            "playlist_track", new String[] {"playlist_id, track_id", "\"PlaylistTrack\"", "\"PlaylistId\", \"TrackId\""});

    @TempDir
    Path dir;

    @Test
    void generateWritesACampaignPerTableInPublicationOrderAndRunningThemPublishesEveryTableEqualToItsSource()
            throws Exception {
        PostgresDatabase source = PostgresDatabase.fresh("store_src");
        PostgresDatabase target = PostgresDatabase.fresh("store_tgt");
        source.execute(SOURCE);
        target.execute(TARGET);
        CampaignFiles files = new CampaignFiles(dir, null, CampaignFiles.writeSecrets(dir, source.jdbcUrl(), target.jdbcUrl(), null, null));
        Path out = dir.resolve("campaigns");

        String generated = files.cli(env(), Duration.ofSeconds(120), 0, "generate", "--source-secret", "src-db",
                "--target-secret", "tgt-db", "--naming", "snake-to-pascal", "--prefix", "store", "--parallel-workers", "2",
                "--no-group", "--secrets", files.secretsFile().toString(), "--out", out.toString());

        assertThat(generated).contains("10 table(s) paired, 1 not paired")
                .contains("source audit_note: it has no primary key")
                .contains("playlist_track -> PlaylistTrack    physical");
        List<Path> campaigns;
        try (Stream<Path> listed = Files.list(out)) {
            campaigns = listed.sorted().toList();
        }
        List<String> order = campaigns.stream().map(p -> p.getFileName().toString()).toList();
        // Parents first, ties by name: every table after the tables its foreign keys reference.
        assertThat(order).containsExactly("01-artist.yaml", "02-album.yaml", "03-employee.yaml", "04-customer.yaml",
                "05-genre.yaml", "06-invoice.yaml", "07-playlist.yaml", "08-track.yaml", "09-invoice-line.yaml",
                "10-playlist-track.yaml");
        String album = Files.readString(out.resolve("02-album.yaml"));
        assertThat(album).contains("table: \"Album\"").contains("uniqueKey: [\"album_id\"]")
                .contains("chunk: {column: \"album_id\", kind: integer, buckets: 1, lowerBound: 1, upperBound: 347}")
                .contains("naming: snake-to-pascal").contains("publish after Artist");

        for (Path campaign : campaigns) {
            String run = files.cli(env(), Duration.ofSeconds(180), 0, "run", campaign.toString(), "--secrets",
                    files.secretsFile().toString(), "--log-dir", dir.resolve("lanes").toString());
            assertThat(run).as(campaign.getFileName().toString()).contains("HandoffCommitted");
        }
        assertEqualToSource(source, target, 10);
    }

    /**
     * The same schema with a foreign-key cycle added (an artist's featured album; albums reference their artist):
     * no order of single publications can satisfy it. Generated with a publication group, each file's run stops
     * validated (exit 9) until the last one, which publishes all ten tables in one transaction; the earlier runs,
     * repeated, hand their campaigns off.
     */
    @Test
    void generatedCampaignsOfOnePublicationGroupPublishTheWholeSchemaCycleIncludedInOneTransaction() throws Exception {
        PostgresDatabase source = PostgresDatabase.fresh("group_src");
        PostgresDatabase target = PostgresDatabase.fresh("group_tgt");
        source.execute(SOURCE);
        source.execute("ALTER TABLE public.artist ADD COLUMN featured_album_id integer",
                "UPDATE public.artist SET featured_album_id = 1 + (artist_id * 3) % 347");
        target.execute(TARGET);
        target.execute("ALTER TABLE public.\"Artist\" ADD COLUMN \"FeaturedAlbumId\" integer"
                + " CONSTRAINT \"FK_ArtistFeaturedAlbumId\" REFERENCES public.\"Album\"");
        CampaignFiles files = new CampaignFiles(dir, null, CampaignFiles.writeSecrets(dir, source.jdbcUrl(), target.jdbcUrl(), null, null));
        Path out = dir.resolve("grouped");

        String generated = files.cli(env(), Duration.ofSeconds(120), 0, "generate", "--source-secret", "src-db",
                "--target-secret", "tgt-db", "--naming", "snake-to-pascal", "--prefix", "store", "--parallel-workers", "2",
                "--secrets", files.secretsFile().toString(), "--out", out.toString());

        System.out.println(generated); // the closing note's evidence, in the surefire report's output
        assertThat(generated).contains("publication group store: all 10 campaigns publish in one transaction");
        List<Path> campaigns;
        try (Stream<Path> listed = Files.list(out)) {
            campaigns = listed.sorted().toList();
        }
        Path artist = campaigns.stream().filter(p -> p.getFileName().toString().endsWith("-artist.yaml")).findFirst().orElseThrow();
        assertThat(Files.readString(artist)).contains("In a foreign-key cycle with Album")
                .contains("name: \"store\"").contains("members: [\"Album\", \"Artist\", \"Customer\", \"Employee\","
                        + " \"Genre\", \"Invoice\", \"InvoiceLine\", \"Playlist\", \"PlaylistTrack\", \"Track\"]");

        for (Path campaign : campaigns.subList(0, campaigns.size() - 1)) {
            BackfillProcess.Result run = BackfillProcess.run(dir, env(), Duration.ofSeconds(180), "run", campaign.toString(),
                    "--secrets", files.secretsFile().toString(), "--log-dir", dir.resolve("lanes").toString());
            assertThat(run.exitCode()).as(run.stderr()).isEqualTo(9);
            assertThat(run.stderr()).as(campaign.getFileName().toString()).contains("publication group store")
                    .contains("waiting for");
            // Issue 40: what stderr tells a person to do is what the evidence on stdout tells a script.
            String told = run.stderr().lines().filter(l -> l.startsWith("backfill: next: ")).reduce((a, b) -> b).orElseThrow()
                    .substring("backfill: next: ".length());
            assertThat(new ObjectMapper().readTree(run.stdout()).path("backfill").path("recommended_action").asText())
                    .isEqualTo(told).contains("exit code 9");
            assertThat(target.queryForLong("SELECT count(*) FROM public.\"Artist\"")).as("nothing published yet").isZero();
        }
        String last = runCampaign(files, campaigns.get(campaigns.size() - 1), 0);
        assertThat(last).contains("HandoffCommitted");
        assertEqualToSource(source, target, 11);
        assertThat(target.queryForStrings("SELECT concat_ws('|', \"ArtistId\", \"FeaturedAlbumId\") FROM public.\"Artist\" ORDER BY 1"))
                .isEqualTo(source.queryForStrings("SELECT concat_ws('|', artist_id, featured_album_id) FROM public.artist ORDER BY 1"));
        for (Path campaign : campaigns.subList(0, campaigns.size() - 1)) {
            assertThat(runCampaign(files, campaign, 0)).as("handed off").contains("HandoffCommitted");
        }

        // Issue 40: rolling back one member swaps the whole group back, and says so, naming every table.
        String rolledBack = files.cli(env(), Duration.ofSeconds(120), 0, "rollback", artist.toString(), "--secrets",
                files.secretsFile().toString(), "--reason", "group rollback check");
        assertThat(rolledBack).contains("rolled back: public.Artist is the previous table again, and so are the other"
                + " members of its publication group in the same transaction: public.Album, public.Customer,"
                + " public.Employee, public.Genre, public.Invoice, public.InvoiceLine, public.Playlist,"
                + " public.PlaylistTrack, public.Track");
        assertThat(target.queryForLong("SELECT count(*) FROM public.\"Track\"")).as("the whole group is back").isZero();
        Path track = campaigns.stream().filter(p -> p.getFileName().toString().endsWith("-track.yaml")).findFirst().orElseThrow();
        String status = files.cli(env(), Duration.ofSeconds(60), 0, "status", track.toString(), "--secrets",
                files.secretsFile().toString());
        assertThat(status).as("another member's status").contains("rolled back with its publication group store")
                .doesNotContain("published with its group");
        JsonNode json = new ObjectMapper().readTree(files.cli(env(), Duration.ofSeconds(60), 0, "status", track.toString(),
                "--secrets", files.secretsFile().toString(), "--format", "json"));
        assertThat(json.path("publication").path("phase").asText()).isEqualTo("rolled_back");
        assertThat(json.path("recommendedAction").asText()).startsWith("rolled back");
    }

    private String runCampaign(CampaignFiles files, Path campaign, int exit) throws Exception {
        return files.cli(env(), Duration.ofSeconds(180), exit, "run", campaign.toString(), "--secrets",
                files.secretsFile().toString(), "--log-dir", dir.resolve("lanes").toString());
    }

    /** Every table equal to its source, row by row; every live foreign key on live tables and validated. */
    private static void assertEqualToSource(PostgresDatabase source, PostgresDatabase target, long foreignKeys) throws Exception {
        for (Map.Entry<String, String[]> table : COMPARED.entrySet()) {
            String[] t = table.getValue();
            assertThat(target.queryForStrings("SELECT concat_ws('|', " + t[2] + ") FROM public." + t[1] + " ORDER BY 1"))
                    .as(table.getKey()).isEqualTo(source.queryForStrings("SELECT concat_ws('|', " + t[0]
                            + ") FROM public." + table.getKey() + " ORDER BY 1"));
        }
        String live = "('Artist', 'Album', 'Genre', 'Track', 'Employee', 'Customer', 'Invoice', 'InvoiceLine', 'Playlist',"
                + " 'PlaylistTrack')";
        assertThat(target.queryForLong("SELECT count(*) FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid"
                + " JOIN pg_class r ON r.oid = k.confrelid WHERE k.contype = 'f' AND t.relname IN " + live))
                .as("the live tables' foreign keys").isEqualTo(foreignKeys);
        assertThat(target.queryForLong("SELECT count(*) FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid"
                + " JOIN pg_class r ON r.oid = k.confrelid WHERE k.contype = 'f' AND t.relname IN " + live
                + " AND r.relname NOT IN " + live)).as("none of them checks against a backup").isZero();
        assertThat(target.queryForLong("SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND NOT convalidated"))
                .as("every foreign key validated").isZero();
    }

    private static Map<String, String> env() {
        return Map.of("BACKFILL_LEASE_TTL_SECONDS", "3", "BACKFILL_LEASE_RENEW_SECONDS", "0.5",
                "BACKFILL_DRAIN_SECONDS", "10", "BACKFILL_LOCK_TIMEOUT_SECONDS", "3");
    }
}
