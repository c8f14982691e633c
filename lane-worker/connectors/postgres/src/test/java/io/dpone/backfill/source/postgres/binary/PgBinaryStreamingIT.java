package io.dpone.backfill.source.postgres.binary;

import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static io.dpone.backfill.source.postgres.binary.PgBinaryTypeRenderingIT.execute;
import static org.assertj.core.api.Assertions.assertThat;

/** Streaming behaviour against a real server: bounded memory, row counts, early close, chunk predicates. */
class PgBinaryStreamingIT {
    private static final int ROWS = 200_000;
    private static final List<String> COLUMNS = List.of("id", "label", "amount", "at", "payload");
    private static Connection connection;
    private static SourceColumnPlan plan;

    @BeforeAll
    static void loadRows() throws SQLException {
        connection = SharedEmbeddedPostgres.get().connect(SharedEmbeddedPostgres.freshDatabase("binary_stream"));
        execute(connection, "CREATE TABLE big (id int8 PRIMARY KEY, label text, amount numeric(12,2), at timestamptz, payload bytea)",
                "INSERT INTO big SELECT g, 'row-' || g || repeat('x', (g % 50)::int), g / 100.0, "
                        + "timestamptz '2024-01-01 00:00:00+00' + g * interval '1 second', "
                        + "decode(md5(g::text), 'hex') FROM generate_series(1, " + ROWS + ") g");
        plan = new SourceColumnPlanner(connection).plan("public", "big", COLUMNS);
    }

    @AfterAll
    static void disconnect() throws SQLException {
        connection.close();
    }

    @Test
    void twoHundredThousandRowsStreamThroughAFieldBufferThatDoesNotGrowWithTheRowCount() throws Exception {
        long idSum = 0;
        BigDecimal amountSum = BigDecimal.ZERO;
        int capacityAfterFirstThousand = -1;
        try (BinaryCopyReader reader = BinaryCopyReader.start(connection, plan, null)) {
            Object[] first = null;
            while (reader.next()) {
                Object[] row = reader.row();
                if (first == null) {
                    first = row;
                }
                assertThat(row).isSameAs(first);
                idSum += (Long) row[0];
                amountSum = amountSum.add((BigDecimal) row[2]);
                if (reader.rowsRead() == 1_000) {
                    capacityAfterFirstThousand = reader.bufferCapacity();
                }
            }

            assertThat(reader.rowsRead()).isEqualTo(ROWS);
            assertThat(reader.finished()).isTrue();
            assertThat(reader.bufferCapacity())
                    .as("the buffer holds one field at a time: the widest here is under 70 bytes")
                    .isEqualTo(capacityAfterFirstThousand)
                    .isLessThanOrEqualTo(256);
        }
        assertThat(idSum).isEqualTo((long) ROWS * (ROWS + 1) / 2);
        assertThat(amountSum).isEqualByComparingTo(new BigDecimal((long) ROWS * (ROWS + 1) / 2).movePointLeft(2));
    }

    @Test
    void theFieldBufferGrowsToTheWidestFieldAndNoFurther() throws Exception {
        execute(connection, "CREATE TABLE wide (id int PRIMARY KEY, body text)",
                "INSERT INTO wide SELECT g, CASE WHEN g = 10 THEN repeat('w', 1000000) ELSE 'small' END FROM generate_series(1, 1000) g");
        SourceColumnPlan widePlan = new SourceColumnPlanner(connection).plan("public", "wide", List.of("id", "body"));
        try (BinaryCopyReader reader = BinaryCopyReader.start(connection, widePlan, "id <= 10")) {
            while (reader.next()) {
                // read up to and including the wide row
            }
            assertThat(reader.bufferCapacity()).isBetween(1_000_000, 2_000_000);
        }
        try (BinaryCopyReader reader = BinaryCopyReader.start(connection, widePlan, null)) {
            int capacityAfterWideRow = 0;
            while (reader.next()) {
                if (reader.rowsRead() == 10) {
                    capacityAfterWideRow = reader.bufferCapacity();
                }
            }
            assertThat(reader.bufferCapacity()).isEqualTo(capacityAfterWideRow);
        }
    }

    @Test
    void closingEarlyCancelsTheCopyAndLeavesTheConnectionUsable() throws Exception {
        BinaryCopyReader reader = BinaryCopyReader.start(connection, plan, null);
        for (int i = 0; i < 10; i++) {
            assertThat(reader.next()).isTrue();
        }
        reader.close();

        assertThat(reader.rowsRead()).isEqualTo(10);
        assertThat(reader.finished()).isFalse();
        assertThat(count("SELECT count(*) FROM big")).isEqualTo(ROWS);
        try (BinaryCopyReader again = BinaryCopyReader.start(connection, plan, "id <= 3")) {
            while (again.next()) {
                // a second COPY on the same connection reads cleanly
            }
            assertThat(again.rowsRead()).isEqualTo(3);
        }
    }

    @Test
    void closingEarlyInsideATransactionAbortsOnlyThatTransaction() throws Exception {
        try (Connection tx = SharedEmbeddedPostgres.get().connect(connection.getCatalog())) {
            tx.setAutoCommit(false);
            try (BinaryCopyReader reader = BinaryCopyReader.start(tx, plan, null)) {
                assertThat(reader.next()).isTrue();
            }
            tx.rollback();
            try (Statement s = tx.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM big")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(ROWS);
            }
        }
    }

    @Test
    void closingAfterTheEndIsANoOp() throws Exception {
        BinaryCopyReader reader = BinaryCopyReader.start(connection, plan, "id = 1");
        while (reader.next()) {
            assertThat(reader.row()[1]).isEqualTo("row-1x");
        }
        reader.close();
        reader.close();

        assertThat(reader.finished()).isTrue();
        assertThat(count("SELECT 1")).isEqualTo(1);
    }

    @Test
    void aPredicateRestrictsTheCopyToTheChunkRange() throws Exception {
        try (BinaryCopyReader reader = BinaryCopyReader.start(connection, plan, "id >= 100 AND id < 200")) {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            while (reader.next()) {
                long id = (Long) reader.row()[0];
                min = Math.min(min, id);
                max = Math.max(max, id);
            }
            assertThat(reader.rowsRead()).isEqualTo(100);
            assertThat(min).isEqualTo(100);
            assertThat(max).isEqualTo(199);
        }
    }

    @Test
    void anEmptyRangeStreamsNoRowsAndFinishes() throws Exception {
        try (BinaryCopyReader reader = BinaryCopyReader.start(connection, plan, "false")) {
            assertThat(reader.next()).isFalse();
            assertThat(reader.next()).isFalse();
            assertThat(reader.finished()).isTrue();
            assertThat(reader.rowsRead()).isZero();
        }
    }

    private static long count(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
