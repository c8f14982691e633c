package io.dpone.backfill.targets.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.digest.DigestTable;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.verify.TablePart;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.sql.Connection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read-back gate's parts (ADR 0036), on a real PostgreSQL: block ranges that together read every row once, so
 * the parts' digests, read on their own sessions, sum to the whole table's, slot by slot.
 */
class PostgresPublishedDigestsPartsIT {
    private static final List<String> COLUMNS = List.of("id", "name", "amount");
    private static final ChunkPlan PLAN = new ChunkPlan(ChunkKind.INTEGER, "id", 1L, 20000L, List.of(
            new ChunkRange(0, null, BigInteger.valueOf(7001)), new ChunkRange(1, BigInteger.valueOf(7001), null)));
    private static final ChunkPlan PHYSICAL = new ChunkPlan(ChunkKind.PHYSICAL, null, null, null, List.of(
            new ChunkRange(0, BigInteger.ZERO, BigInteger.valueOf(100)), new ChunkRange(1, BigInteger.valueOf(100), null)));
    private static String database;

    @BeforeAll
    static void table() throws Exception {
        database = SharedEmbeddedPostgres.freshDatabase("parts");
        SharedEmbeddedPostgres.get().execute(database,
                "CREATE TABLE public.items (id bigint PRIMARY KEY, name text, amount numeric(12,2))",
                "INSERT INTO public.items SELECT i, repeat('n', i % 40) || i, i * 0.25 FROM generate_series(1, 20000) i",
                // a row moved to the heap's end: every part is a block range, not a key range
                "UPDATE public.items SET name = 'moved' WHERE id = 3",
                "VACUUM ANALYZE public.items");
    }

    @Test
    void partsOfATableSumToTheWholeTableSlotBySlot() throws Exception {
        try (Connection c = connect()) {
            PostgresPublishedDigests reader = new PostgresPublishedDigests(c).splittingEvery(8);
            List<TablePart> parts = reader.split("public", "items", 3);
            assertThat(parts).hasSize(3);
            assertThat(parts.get(0).from()).isZero();
            assertThat(parts.get(1).from()).isEqualTo(parts.get(0).to());
            assertThat(parts.get(2).from()).isEqualTo(parts.get(1).to());
            assertThat(parts.get(2).to()).as("the last part is open: rows past the measured end are read").isEqualTo(-1);

            for (ChunkPlan plan : List.of(PLAN, PHYSICAL)) {
                DigestTable whole = reader.read("public", "items", COLUMNS, List.of("id"), plan, RowEncoding.POSTGRES_COPY_BINARY);
                DigestTable summed = new DigestTable(whole.size());
                long smallest = Long.MAX_VALUE;
                for (TablePart part : parts) {
                    try (Connection session = connect()) {
                        DigestTable read = new PostgresPublishedDigests(session).read("public", "items", COLUMNS,
                                List.of("id"), plan, RowEncoding.POSTGRES_COPY_BINARY, part);
                        smallest = Math.min(smallest, read.total().rows());
                        summed.plus(read);
                    }
                }
                assertThat(smallest).as("each part holds rows of its own").isPositive();
                for (int slot = 0; slot < whole.size(); slot++) {
                    assertThat(summed.digest(slot)).as("slot " + slot).isEqualTo(whole.digest(slot));
                }
                assertThat(summed.total().rows()).isEqualTo(20000);
            }
        }
    }

    @Test
    void aTableSmallerThanTwoPartsIsReadWhole() throws Exception {
        try (Connection c = connect()) {
            assertThat(new PostgresPublishedDigests(c).split("public", "items", 4)).containsExactly(TablePart.WHOLE);
            assertThat(new PostgresPublishedDigests(c).splittingEvery(8).split("public", "items", 1))
                    .containsExactly(TablePart.WHOLE);
        }
    }

    private static Connection connect() throws Exception {
        return SharedEmbeddedPostgres.get().connect(database);
    }
}
