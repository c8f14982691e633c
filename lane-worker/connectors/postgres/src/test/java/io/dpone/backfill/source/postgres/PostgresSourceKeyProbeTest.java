package io.dpone.backfill.source.postgres;

import io.dpone.backfill.source.KeyMatch;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The probe's statement text and how it shows a tuple (no engine: the IT runs the statements). */
class PostgresSourceKeyProbeTest {
    @Test
    void aTypedColumnIsComparedAfterCastingTheTextToItsType() {
        assertThat(PostgresSourceKeyProbe.missingSql("\"s\".\"orders\"", List.of("id"), List.of(KeyMatch.TYPED),
                Arrays.asList("bigint")))
                .isEqualTo("SELECT probe.v0 FROM ROWS FROM (pg_catalog.unnest(?::text[])) AS probe(v0)"
                        + " WHERE NOT EXISTS (SELECT 1 FROM \"s\".\"orders\" s WHERE s.\"id\" = probe.v0::bigint) ORDER BY 1");
    }

    @Test
    void eachColumnOfACompositeKeyHasItsOwnArrayAndComparison() {
        String sql = PostgresSourceKeyProbe.missingSql("\"s\".\"t\"", List.of("a", "b", "c", "d"),
                List.of(KeyMatch.TYPED, KeyMatch.TEXT, KeyMatch.TEXT_PADDED, KeyMatch.TEXT_PADDED_CASELESS),
                Arrays.asList("uuid", null, null, null));

        assertThat(sql).startsWith("SELECT probe.v0, probe.v1, probe.v2, probe.v3 FROM ROWS FROM ("
                        + "pg_catalog.unnest(?::text[]), pg_catalog.unnest(?::text[]), pg_catalog.unnest(?::text[]),"
                        + " pg_catalog.unnest(?::text[])) AS probe(v0, v1, v2, v3)")
                .contains("s.\"a\" = probe.v0::uuid AND s.\"b\"::text = probe.v1"
                        + " AND pg_catalog.rtrim(s.\"c\"::text) = pg_catalog.rtrim(probe.v2)"
                        + " AND pg_catalog.lower(pg_catalog.rtrim(s.\"d\"::text) COLLATE pg_catalog.\"C\")"
                        + " = pg_catalog.lower(pg_catalog.rtrim(probe.v3) COLLATE pg_catalog.\"C\")")
                .endsWith(") ORDER BY 1, 2, 3, 4");
    }

    @Test
    void aSourceColumnNameIsQuotedAsWritten() {
        assertThat(PostgresSourceKeyProbe.missingSql("\"s\".\"t\"", List.of("Order Id"), List.of(KeyMatch.TEXT),
                Arrays.asList((String) null))).contains("s.\"Order Id\"::text = probe.v0");
    }

    @Test
    void aSingleValueIsShownAloneAndATupleInParentheses() {
        assertThat(PostgresSourceKeyProbe.shown(new String[]{"42"})).isEqualTo("42");
        assertThat(PostgresSourceKeyProbe.shown(new String[]{"2", "gone"})).isEqualTo("(2, gone)");
    }

    @Test
    void onlyPostgresIntegerTypesAreIntegers() {
        assertThat(List.of("smallint", "integer", "bigint")).allMatch(PostgresSourceKeyProbe::integer);
        assertThat(List.of("numeric", "uuid", "text", "integer[]")).noneMatch(PostgresSourceKeyProbe::integer);
    }
}
