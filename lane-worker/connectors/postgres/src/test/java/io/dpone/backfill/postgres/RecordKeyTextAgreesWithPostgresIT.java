package io.dpone.backfill.postgres;

import io.dpone.backfill.core.reconcile.KeyBuckets;
import io.dpone.backfill.core.reconcile.KeyDigestSums;
import io.dpone.backfill.core.reconcile.Lookup3Hash;
import io.dpone.backfill.core.reconcile.RecordKeyText;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's Java key text, hash and digests (what a target that cannot hash its keys as the source does computes,
 * ADR 0056) are PostgreSQL's own, proven on a real server: {@link Lookup3Hash} equals {@code hashtextextended(.., 0)}
 * for every length around the 12-byte blocks and tails; {@link RecordKeyText} equals {@code ROW(..)::text} with every
 * quoting rule, negative numbers, NULLs and non-ASCII text; and digests per bucket computed in Java from keys read
 * back equal the source's {@link PostgresKeyText#digests} for integer, text, uuid and composite keys.
 */
class RecordKeyTextAgreesWithPostgresIT {
    private static final List<String> AWKWARD = List.of("", " ", "a b", "\"", "\\", "(", ")", ",", "x,y", "tab\there",
            "new\nline", "cr\rx", "ff\fx", "vt\u000Bx", "say \"hi\"", "back\\slash", "NULL", "null", "ünïcødé", "日本語",
            "emoji 🚀", "\u00A0nbsp", "trailing ", " leading", "()", "a\"b\\c(d)e,f g");

    private static Connection db;

    @BeforeAll
    static void connect() throws SQLException {
        db = SharedEmbeddedPostgres.get().connect(SharedEmbeddedPostgres.freshDatabase("recordkeytext"));
    }

    @AfterAll
    static void disconnect() throws SQLException {
        db.close();
    }

    @Test
    void lookup3HashEqualsHashtextextendedForEveryLengthAndByte() throws SQLException {
        Random random = new Random(38);
        List<String> texts = new ArrayList<>(AWKWARD);
        for (int length = 0; length <= 64; length++) {
            StringBuilder ascii = new StringBuilder();
            StringBuilder wide = new StringBuilder();
            for (int i = 0; i < length; i++) {
                ascii.append((char) (' ' + random.nextInt(95)));
                wide.appendCodePoint(random.nextBoolean() ? 0xE0 + random.nextInt(0x100) : 0x1F600 + random.nextInt(64));
            }
            texts.add(ascii.toString());
            texts.add(wide.toString());
        }
        try (PreparedStatement ps = db.prepareStatement("SELECT pg_catalog.hashtextextended(?, 0)")) {
            for (String text : texts) {
                ps.setString(1, text);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertThat(Lookup3Hash.hash64(text.getBytes(StandardCharsets.UTF_8), 0)).as("hash of '" + text + "'")
                            .isEqualTo(rs.getLong(1));
                }
            }
        }
        // A non-zero seed mixes it in first, as the server does.
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_catalog.hashtextextended('seeded', 42)")) {
            rs.next();
            assertThat(Lookup3Hash.hash64("seeded".getBytes(StandardCharsets.UTF_8), 42)).isEqualTo(rs.getLong(1));
        }
    }

    @Test
    void recordKeyTextEqualsTheRecordsTextWithEveryQuotingRuleNegativeNumbersNullsAndUnicode() throws SQLException {
        execute("CREATE TABLE composite (a integer, b text, c uuid, d bigint, e smallint)");
        Random random = new Random(7);
        try (PreparedStatement ps = db.prepareStatement("INSERT INTO composite VALUES (?, ?, ?, ?, ?)")) {
            for (String text : AWKWARD) {
                ps.setInt(1, random.nextInt() | Integer.MIN_VALUE);
                ps.setString(2, text);
                ps.setObject(3, UUID.randomUUID());
                ps.setLong(4, random.nextLong());
                ps.setShort(5, (short) -random.nextInt(32768));
                ps.addBatch();
            }
            ps.setNull(1, java.sql.Types.INTEGER);
            ps.setNull(2, java.sql.Types.VARCHAR);
            ps.setNull(3, java.sql.Types.OTHER);
            ps.setLong(4, Long.MIN_VALUE);
            ps.setShort(5, Short.MIN_VALUE);
            ps.addBatch();
            ps.executeBatch();
        }
        int rows = 0;
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT a, b, c, d, e, ROW(a, b, c, d, e)::text,"
                + " pg_catalog.hashtextextended(ROW(a, b, c, d, e)::text, 0), ROW(b)::text FROM composite")) {
            while (rs.next()) {
                List<Object> key = Arrays.asList(rs.getObject(1), rs.getObject(2), rs.getObject(3, UUID.class), rs.getObject(4),
                        rs.getObject(5) == null ? null : rs.getShort(5));
                assertThat(RecordKeyText.of(key)).isEqualTo(rs.getString(6));
                assertThat(RecordKeyText.hash(key)).isEqualTo(rs.getLong(7));
                assertThat(RecordKeyText.of(Arrays.asList(rs.getObject(2)))).isEqualTo(rs.getString(8));
                rows++;
            }
        }
        assertThat(rows).isEqualTo(AWKWARD.size() + 1);
    }

    @Test
    void digestsPerBucketComputedInJavaFromKeysReadBackEqualTheSourcesForEveryKeyShape() throws SQLException {
        execute("CREATE TABLE k_bigint (k bigint PRIMARY KEY)",
                "INSERT INTO k_bigint SELECT i * 7919 - 5000000 FROM generate_series(1, 20000) i",
                "CREATE TABLE k_uuid (k uuid PRIMARY KEY)",
                "INSERT INTO k_uuid SELECT gen_random_uuid() FROM generate_series(1, 20000)",
                "CREATE TABLE k_text (k text PRIMARY KEY)",
                "INSERT INTO k_text SELECT 'key ' || i || CASE WHEN i % 3 = 0 THEN ',\"ü\"' ELSE '' END FROM generate_series(1, 20000) i",
                "CREATE TABLE k_composite (a integer, b text, PRIMARY KEY (a, b))",
                "INSERT INTO k_composite SELECT -i, CASE WHEN i % 5 = 0 THEN '' ELSE 'v(' || i || ')' END FROM generate_series(1, 20000) i");
        for (String[] table : List.of(new String[] {"k_bigint", "k"}, new String[] {"k_uuid", "k"}, new String[] {"k_text", "k"},
                new String[] {"k_composite", "a", "b"})) {
            List<String> columns = List.of(table).subList(1, table.length);
            PostgresKeyText keyText = PostgresKeyText.of(new PostgresJdbc(db), table[0], columns);
            KeyDigestSums server = new KeyDigestSums();
            try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(keyText.digests(table[0], "t", "0"))) {
                while (rs.next()) {
                    server.addDigest(rs.getInt(1), rs.getInt(2), rs.getLong(3), new BigInteger(rs.getString(4)));
                }
            }
            KeyDigestSums java = new KeyDigestSums();
            try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT " + String.join(", ", columns)
                    + " FROM " + table[0])) {
                while (rs.next()) {
                    List<Object> key = new ArrayList<>();
                    for (int c = 1; c <= columns.size(); c++) {
                        Object value = rs.getObject(c);
                        key.add(value);
                    }
                    java.add(0, RecordKeyText.hash(key));
                }
            }
            assertThat(java.differing(server).size()).as(table[0] + ": buckets whose Java digest differs").isZero();
            long keys = 0;
            for (int b = 0; b < KeyBuckets.COUNT; b++) {
                keys += java.count(0, b);
            }
            assertThat(keys).isEqualTo(20000);
            // A key the other side lacks shows in exactly its own bucket.
            try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT " + String.join(", ", columns)
                    + " FROM " + table[0] + " LIMIT 1")) {
                rs.next();
                List<Object> extra = new ArrayList<>();
                for (int c = 1; c <= columns.size(); c++) {
                    extra.add(rs.getObject(c));
                }
                java.add(0, RecordKeyText.hash(extra));
                assertThat(java.differing(server).size()).isEqualTo(1);
                assertThat(java.differing(server).contains(0, RecordKeyText.bucket(RecordKeyText.hash(extra)))).isTrue();
            }
        }
    }

    private static void execute(String... statements) throws SQLException {
        try (Statement s = db.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }
}
