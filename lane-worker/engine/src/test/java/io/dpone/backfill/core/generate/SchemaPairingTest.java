package io.dpone.backfill.core.generate;

import io.dpone.backfill.core.campaign.ColumnNaming;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.campaign.IdentifierComparison;
import io.dpone.backfill.core.publish.ColumnShape;
import io.dpone.backfill.core.publish.TableShape;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** How {@code backfill generate} pairs a schema's tables, orders them and sizes their chunks (issue 27). */
class SchemaPairingTest {
    private static TableShape shape(String... columns) {
        return new TableShape(Arrays.stream(columns).map(c -> new ColumnShape(c, "integer", false)).toList());
    }

    private static SourceTableFacts source(String name, List<String> key, SourceTableFacts.KeyKind kind, long rows,
                                           String... columns) {
        return new SourceTableFacts(name, shape(columns), key, kind, rows, rows / 100, 1L, rows, 1.0);
    }

    /** A table of {@code rows} rows, 100 a page, whose single key has {@code correlation} with the heap order. */
    private static SourceTableFacts keyed(SourceTableFacts.KeyKind kind, long rows, Double correlation) {
        return new SourceTableFacts("t", shape("id"), List.of("id"), kind, rows, rows / 100, 1L, rows, correlation);
    }

    @Test
    void tablesPairUnderTheRuleAndPublishParentsFirstWithCyclesLastAndNamed() {
        List<SourceTableFacts> sources = List.of(
                source("album", List.of("album_id"), SourceTableFacts.KeyKind.INTEGER, 347, "album_id", "artist_id"),
                source("artist", List.of("artist_id"), SourceTableFacts.KeyKind.INTEGER, 275, "artist_id"),
                source("ping", List.of("ping_id"), SourceTableFacts.KeyKind.INTEGER, 10, "ping_id", "pong_id"),
                source("pong", List.of("pong_id"), SourceTableFacts.KeyKind.INTEGER, 10, "pong_id", "ping_id"),
                source("orphan", List.of(), SourceTableFacts.KeyKind.OTHER, 10, "x"));
        Map<String, TableShape> targets = new TreeMap<>(Map.of(
                "Album", shape("AlbumId", "ArtistId"), "Artist", shape("ArtistId"), "Ping", shape("PingId", "PongId"),
                "Pong", shape("PongId", "PingId"), "Orphan", shape("X"), "Extra", shape("Id")));
        List<TableReference> references = List.of(new TableReference("Album", "Artist"), new TableReference("Ping", "Pong"),
                new TableReference("Pong", "Ping"), new TableReference("Artist", "Artist"));

        SchemaPairing pairing = SchemaPairing.of(sources, targets, references, ColumnNaming.SNAKE_TO_PASCAL);

        assertThat(pairing.paired()).extracting(PairedTable::target).containsExactly("Artist", "Album", "Ping", "Pong");
        assertThat(pairing.paired().get(1).after()).containsExactly("Artist");
        assertThat(pairing.paired().get(0).after()).as("a self-reference orders nothing").isEmpty();
        assertThat(pairing.paired().get(2).cycle()).containsExactly("Pong");
        assertThat(pairing.paired().get(1).columns().describe()).isEqualTo("album_id -> AlbumId, artist_id -> ArtistId");
        assertThat(pairing.unpaired()).extracting(UnpairedTable::side, UnpairedTable::table)
                .containsExactly(tuple("source", "orphan"), tuple("target", "Extra"));
    }

    /**
     * Issue 36: a catalog under a case-insensitive collation may list {@code invoiceline} for the table a user created
     * as {@code InvoiceLine}; SQL Server resolves both to one table, so generate pairs them, columns too. Compared
     * exactly (PostgreSQL's rule) nothing pairs. Two target tables one name stands for are refused, naming both.
     */
    @Test
    void tablesAndColumnsPairAsTheTargetComparesNames() {
        List<SourceTableFacts> sources = List.of(
                source("invoice_line", List.of("invoice_line_id"), SourceTableFacts.KeyKind.INTEGER, 100,
                        "invoice_line_id", "invoice_id"),
                source("invoice", List.of("invoice_id"), SourceTableFacts.KeyKind.INTEGER, 10, "invoice_id"));
        Map<String, TableShape> lowered = new TreeMap<>(Map.of("invoiceline", shape("invoicelineid", "INVOICEID"),
                "invoice", shape("invoiceid")));
        List<TableReference> references = List.of(new TableReference("invoiceline", "invoice"));

        SchemaPairing insensitive = SchemaPairing.of(sources, lowered, references, ColumnNaming.SNAKE_TO_PASCAL,
                IdentifierComparison.CASE_INSENSITIVE);
        assertThat(insensitive.unpaired()).isEmpty();
        assertThat(insensitive.paired()).extracting(PairedTable::target).containsExactly("invoice", "invoiceline");
        assertThat(insensitive.paired().get(1).columns().describe())
                .isEqualTo("invoice_line_id -> invoicelineid, invoice_id -> INVOICEID");

        SchemaPairing exact = SchemaPairing.of(sources, lowered, references, ColumnNaming.SNAKE_TO_PASCAL);
        assertThat(exact.paired()).isEmpty();

        Map<String, TableShape> twice = new TreeMap<>(Map.of("Invoice", shape("InvoiceId"), "INVOICE", shape("InvoiceId")));
        SchemaPairing ambiguous = SchemaPairing.of(sources.subList(1, 2), twice, List.of(), ColumnNaming.SNAKE_TO_PASCAL,
                IdentifierComparison.CASE_INSENSITIVE);
        assertThat(ambiguous.unpaired()).anySatisfy(u -> assertThat(u.why()).contains("INVOICE").contains("Invoice"));
    }

    @Test
    void aSqlServerCollationNamesItsCaseSensitivity() {
        assertThat(IdentifierComparison.ofCollation("SQL_Latin1_General_CP1_CI_AS")).isEqualTo(IdentifierComparison.CASE_INSENSITIVE);
        assertThat(IdentifierComparison.ofCollation("Latin1_General_100_CI_AS_SC_UTF8")).isEqualTo(IdentifierComparison.CASE_INSENSITIVE);
        assertThat(IdentifierComparison.ofCollation("Latin1_General_CS_AS")).isEqualTo(IdentifierComparison.EXACT);
        assertThat(IdentifierComparison.ofCollation("Latin1_General_BIN2")).isEqualTo(IdentifierComparison.EXACT);
        assertThat(IdentifierComparison.CASE_INSENSITIVE.same("InvoiceLine", "INVOICELINE")).isTrue();
        assertThat(IdentifierComparison.CASE_INSENSITIVE.same("résumé", "resume")).as("accents still differ").isFalse();
        assertThat(IdentifierComparison.EXACT.same("InvoiceLine", "invoiceline")).isFalse();
    }

    @Test
    void chunksAreSizedFromTheTableAndTheKeyKind() {
        assertThat(ChunkSizing.of(source("big", List.of("id"), SourceTableFacts.KeyKind.INTEGER, 1_000_000, "id")))
                .isEqualTo(new ChunkSizing("integer", "id", 4, 1L, 1_000_000L, "key id follows the heap order (correlation 1.000)"));
        assertThat(ChunkSizing.of(new SourceTableFacts("few", shape("id"), List.of("id"), SourceTableFacts.KeyKind.INTEGER,
                5_000_000, 1, 1L, 3L, 1.0)).buckets()).as("never more chunks than keys").isEqualTo(3);
        assertThat(ChunkSizing.of(source("u", List.of("id"), SourceTableFacts.KeyKind.UUID, 600_000, "id")))
                .isEqualTo(new ChunkSizing("uuid", "id", 3, null, null, "key id follows the heap order (correlation 1.000)"));
        assertThat(ChunkSizing.of(new SourceTableFacts("pair", shape("a", "b"), List.of("a", "b"),
                SourceTableFacts.KeyKind.OTHER, 10, 20_000, null, null, null)))
                .isEqualTo(new ChunkSizing("physical", null, 3, null, null, "composite key"));
    }

    /** Issue 41: the key's order in the heap, not its type, decides key ranges or block ranges. */
    @Test
    void aKeyTheHeapHoldsOutOfOrderGetsPhysicalChunksAndAnOrderedOneKeyRanges() {
        ChunkSizing random = ChunkSizing.of(keyed(SourceTableFacts.KeyKind.UUID, 50_000_000, 0.002));
        ChunkSizing ordered = ChunkSizing.of(keyed(SourceTableFacts.KeyKind.INTEGER, 50_000_000, -0.9995));
        ChunkSizing partly = ChunkSizing.of(keyed(SourceTableFacts.KeyKind.INTEGER, 50_000_000, 0.95));

        assertThat(random.kind()).isEqualTo("physical");
        assertThat(random.buckets()).as("64 MiB block ranges of 500,000 pages").isEqualTo(62);
        assertThat(random.why()).isEqualTo("key id lies out of heap order (correlation 0.002): key ranges would read"
                + " the table about 101x");
        assertThat(ordered.kind()).isEqualTo("integer");
        assertThat(ordered.why()).isEqualTo("key id follows the heap order (correlation -1.000)");
        assertThat(partly.kind()).as("5% of rows scattered: five more page visits per page").isEqualTo("physical");
    }

    @Test
    void oneChunkOrAKeyWithoutStatisticsKeepsKeyRanges() {
        assertThat(ChunkSizing.of(keyed(SourceTableFacts.KeyKind.UUID, 200_000, 0.0)))
                .extracting(ChunkSizing::kind, ChunkSizing::why).containsExactly("uuid", "key id (one chunk reads the table once)");
        assertThat(ChunkSizing.of(keyed(SourceTableFacts.KeyKind.UUID, 5_000_000, null)).kind()).isEqualTo("uuid");
    }

    @Test
    void everyGeneratedFileReadsBackAsAValidCampaignWhateverTheNames() {
        SourceTableFacts odd = source("Order Lines", List.of("line id"), SourceTableFacts.KeyKind.INTEGER, 10, "line id");
        PairedTable table = SchemaPairing.of(List.of(odd), Map.of("Order Lines", shape("line id")), List.of(),
                ColumnNaming.EXACT).paired().get(0);
        String text = CampaignFileText.render(table, 1, new CampaignFileText.Settings("shop", "src", "public", "postgres",
                "tgt", "public", ColumnNaming.EXACT, 2, null));
        var definition = CampaignReader.parse(text);
        assertThat(definition.spec().getSource().getTable()).isEqualTo("Order Lines");
        assertThat(definition.spec().getUniqueKey()).containsExactly("line id");
        assertThat(definition.spec().getBackfillId()).isEqualTo("shop_Order_Lines_v1");
        assertThat(definition.name()).isEqualTo("shop-order-lines");
        assertThat(CampaignFileText.fileName(table, 1)).isEqualTo("1-order-lines.yaml");
    }

    @Test
    void aGeneratedGroupListsEveryPairedTargetTableInEveryFileAndReadsBack() {
        SourceTableFacts odd = source("Order Lines", List.of("line id"), SourceTableFacts.KeyKind.INTEGER, 10, "line id");
        PairedTable table = SchemaPairing.of(List.of(odd), Map.of("Order Lines", shape("line id")), List.of(),
                ColumnNaming.EXACT).paired().get(0);
        String text = CampaignFileText.render(table, 2, new CampaignFileText.Settings("Shop DB", "src", "public", "postgres",
                "tgt", "public", ColumnNaming.EXACT, 2, new CampaignFileText.Group(CampaignFileText.groupName("Shop DB"),
                List.of("Orders", "Order Lines"))));

        var group = CampaignReader.parse(text).spec().getPublication().getGroup();
        assertThat(group.getName()).isEqualTo("shop-db");
        assertThat(group.getMembers()).containsExactly("Order Lines", "Orders");
    }
}
