package io.dpone.backfill.postgres;

import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cheaper forms of a key's text and hash are the record's own, proven on a real PostgreSQL server: a pass compares
 * what one side computed one way with what the other computed another (a source key of another type, a composite).
 */
class PostgresKeyTextIT {
    private static Connection db;

    @BeforeAll
    static void connect() throws SQLException {
        db = SharedEmbeddedPostgres.get().connect(SharedEmbeddedPostgres.freshDatabase("keytext"));
    }

    @AfterAll
    static void disconnect() throws SQLException {
        db.close();
    }

    @Test
    void aSingleIntegerOrUuidKeysTextIsTheRecordsTextForEveryValue() throws SQLException {
        for (String[] typed : List.of(
                new String[] {"smallint", "SELECT unnest(ARRAY[-32768, -1, 0, 7, 32767])::smallint"},
                new String[] {"integer", "SELECT unnest(ARRAY[-2147483648, -42, 0, 1, 2147483647])"},
                new String[] {"bigint", "SELECT unnest(ARRAY[-9223372036854775808, -1, 0, 10, 9223372036854775807])"},
                new String[] {"uuid", "SELECT gen_random_uuid() FROM generate_series(1, 200) UNION ALL SELECT"
                        + " '00000000-0000-0000-0000-000000000000'::uuid UNION ALL SELECT 'ffffffff-ffff-ffff-ffff-ffffffffffff'"})) {
            String table = "keys_" + typed[0];
            execute("CREATE TABLE " + table + " (k " + typed[0] + " PRIMARY KEY)", "INSERT INTO " + table + " " + typed[1]);
            PostgresKeyText text = PostgresKeyText.of(new PostgresJdbc(db), table, List.of("k"));
            assertThat(text.text("t")).as(typed[0] + ": the cheaper form").doesNotContain("ROW(");
            assertThat(count("SELECT count(*) FROM " + table + " t WHERE " + text.text("t") + " IS DISTINCT FROM ROW(t.k)::text"))
                    .as(typed[0] + " keys whose text differs from the record's").isZero();
        }
    }

    @Test
    void aUuidKeyHashesItsSixteenBytesWithTheFunctionTextIsHashedWith() throws SQLException {
        // Uuids whose 16 bytes are ASCII text: hashing the value and hashing that text must agree, so another engine's
        // reader can compute the same from the value's bytes.
        execute("CREATE TABLE keys_hash (s text, k uuid PRIMARY KEY)", "INSERT INTO keys_hash SELECT s,"
                + " encode(convert_to(s, 'UTF8'), 'hex')::uuid FROM (SELECT substr(md5(i::text), 1, 16) AS s FROM generate_series(1, 500) i) x");
        PostgresKeyText text = PostgresKeyText.of(new PostgresJdbc(db), "keys_hash", List.of("k"));
        assertThat(text.hash("t")).contains("uuid_hash_extended");
        assertThat(count("SELECT count(*) FROM keys_hash t WHERE " + text.hash("t") + " <> pg_catalog.hashtextextended(t.s, 0)"))
                .isZero();
        assertThat(count("SELECT count(*) FROM keys_hash")).isEqualTo(500);
    }

    @Test
    void aCompositeOrTextKeyKeepsTheRecordsTextWithItsQuoting() throws SQLException {
        execute("CREATE TABLE keys_text (a text, b integer, PRIMARY KEY (a, b))",
                "INSERT INTO keys_text VALUES ('plain', 1), ('with space', 2), ('comma,paren)', 3), ('', 4), ('quote\"', 5)");
        PostgresKeyText text = PostgresKeyText.of(new PostgresJdbc(db), "keys_text", List.of("a", "b"));
        assertThat(text.text("t")).isEqualTo("ROW(t.\"a\", t.\"b\")::text");
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT " + text.text("t") + " FROM keys_text t ORDER BY b")) {
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("(plain,1)");
            rs.next();
            assertThat(rs.getString(1)).isEqualTo("(\"with space\",2)");
        }
        PostgresKeyText single = PostgresKeyText.of(new PostgresJdbc(db), "keys_text", List.of("a"));
        assertThat(single.text("t")).as("text is quoted by the record output").isEqualTo("ROW(t.\"a\")::text");
    }

    private static void execute(String... statements) throws SQLException {
        try (Statement s = db.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private static long count(String sql) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
