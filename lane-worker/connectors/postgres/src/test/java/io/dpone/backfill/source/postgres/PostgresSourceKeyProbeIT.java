package io.dpone.backfill.source.postgres;

import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import io.dpone.backfill.source.KeyMatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Referencing values probed against a real PostgreSQL source table, as the targets' doctors send them. */
class PostgresSourceKeyProbeIT {
    private static final String TABLE = "\"probe\".\"parents\"";
    private static Connection source;
    private static PostgresSourceKeyProbe probe;

    @BeforeAll
    static void connect() throws SQLException {
        source = SharedEmbeddedPostgres.get().connect(SharedEmbeddedPostgres.freshDatabase("key_probe"));
        probe = new PostgresSourceKeyProbe(source);
        exec("CREATE SCHEMA probe");
        exec("CREATE TABLE probe.parents (id integer PRIMARY KEY, code varchar(3), amount numeric(12,2), ref uuid,"
                + " label text, parent_id integer)");
        exec("INSERT INTO probe.parents SELECT g, 'c' || (g % 10), g + 0.35, NULL, 'Label ' || g, NULL"
                + " FROM generate_series(1, 6000) g");
        exec("UPDATE probe.parents SET ref = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', code = 'abc' WHERE id = 1");
        exec("UPDATE probe.parents SET label = 'étiquette' WHERE id = 2");
    }

    @AfterAll
    static void close() throws SQLException {
        source.close();
    }

    @Test
    void aRowReferencesOnlyWhenEveryKeyColumnIsSet() throws SQLException {
        assertThat(probe.anyRowReferencing(TABLE, List.of("parent_id"))).isFalse();
        assertThat(probe.anyRowReferencing(TABLE, List.of("id", "parent_id"))).isFalse();
        assertThat(probe.anyRowReferencing(TABLE, List.of("id", "ref"))).isTrue();
    }

    @Test
    void valuesTheSourceLacksAreReturnedSortedAndThoseItHoldsAreNot() throws SQLException {
        List<String[]> missing = probe.missing(TABLE, List.of("id"), values("7", "6001", "3", "9000"));

        assertThat(missing).extracting(PostgresSourceKeyProbe::shown).containsExactly("6001", "9000");
    }

    @Test
    void aValueWiderThanTheSourceColumnsTypeIsAbsentNotAFailedCast() throws SQLException {
        // A bigint referencing value beyond integer's range: the cast is to bigint, so it is simply not there.
        assertThat(probe.missing(TABLE, List.of("id"), values("3000000000"))).extracting(PostgresSourceKeyProbe::shown)
                .containsExactly("3000000000");
    }

    @Test
    void theColumnsModifierDoesNotCutOrRoundAValueIntoAFalseMatch() throws SQLException {
        // varchar(3) would cut 'abcdef' to 'abc', numeric(12,2) round 1.345 to 1.35: both held by row 1.
        assertThat(probe.missing(TABLE, List.of("code"), values("abcdef", "abc"))).extracting(PostgresSourceKeyProbe::shown)
                .containsExactly("abcdef");
        assertThat(probe.missing(TABLE, List.of("amount"), values("1.345", "1.350"))).extracting(PostgresSourceKeyProbe::shown)
                .containsExactly("1.345");
    }

    @Test
    void aUuidIsComparedAsAUuidWhateverTheLetterCaseOfItsText() throws SQLException {
        assertThat(probe.missing(TABLE, List.of("ref"), values("A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11"))).isEmpty();
    }

    @Test
    void aCompositeKeyIsProbedAsTuples() throws SQLException {
        List<String[]> tuples = List.of(new String[]{"1", "abc"}, new String[]{"2", "abc"}, new String[]{"2", "c2"});

        assertThat(probe.missing(TABLE, List.of("id", "code"), tuples)).extracting(PostgresSourceKeyProbe::shown)
                .containsExactly("(2, abc)");
    }

    @Test
    void textComparisonsIgnoreTrailingSpacesAndCaseOnlyWhenAsked() throws SQLException {
        List<String[]> texts = values("Label 5", "Label 5   ", "LABEL 5");

        assertThat(probe.missing(TABLE, List.of("label"), List.of(KeyMatch.TEXT), texts))
                .extracting(PostgresSourceKeyProbe::shown).containsExactly("LABEL 5", "Label 5   ");
        assertThat(probe.missing(TABLE, List.of("label"), List.of(KeyMatch.TEXT_PADDED), texts))
                .extracting(PostgresSourceKeyProbe::shown).containsExactly("LABEL 5");
        assertThat(probe.missing(TABLE, List.of("label"), List.of(KeyMatch.TEXT_PADDED_CASELESS), texts)).isEmpty();
        // Only A-Z fold: how other letters do depends on the locale.
        assertThat(probe.missing(TABLE, List.of("label"), List.of(KeyMatch.TEXT_PADDED_CASELESS), values("LABEL 5", "ÉTIQUETTE")))
                .extracting(PostgresSourceKeyProbe::shown).containsExactly("ÉTIQUETTE");
    }

    @Test
    void moreValuesThanOneBatchAreAllProbed() throws SQLException {
        List<String[]> many = new ArrayList<>();
        for (int i = 1; i <= PostgresSourceKeyProbe.BATCH + 2; i++) {
            many.add(new String[]{Integer.toString(i == 2 ? -2 : i)});
        }

        assertThat(probe.missing(TABLE, List.of("id"), many)).extracting(PostgresSourceKeyProbe::shown)
                .containsExactly("-2");
        many.set(PostgresSourceKeyProbe.BATCH + 1, new String[]{"-5002"});
        assertThat(probe.missing(TABLE, List.of("id"), many)).extracting(PostgresSourceKeyProbe::shown)
                .containsExactly("-2", "-5002");
    }

    @Test
    void theSourceColumnsTypeIsNamedWithoutItsModifier() throws SQLException {
        assertThat(probe.columnType(TABLE, "code")).isEqualTo("character varying");
        assertThat(probe.columnType(TABLE, "amount")).isEqualTo("numeric");
        assertThat(probe.columnType(TABLE, "id")).isEqualTo("integer");
    }

    private static List<String[]> values(String... values) {
        return java.util.Arrays.stream(values).map(v -> new String[]{v}).toList();
    }

    private static void exec(String sql) throws SQLException {
        try (Statement s = source.createStatement()) {
            s.execute(sql);
        }
    }
}
