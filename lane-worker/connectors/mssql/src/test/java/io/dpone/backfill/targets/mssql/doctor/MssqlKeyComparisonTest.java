package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.source.KeyMatch;
import io.dpone.backfill.source.SourceKeyType;
import io.dpone.backfill.source.postgres.binary.TypeFamilies;
import io.dpone.backfill.targets.mssql.doctor.MssqlKeyComparison.Sureness;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How the doctor compares a referencing column's text values with the source, by type and collation (no engine). */
class MssqlKeyComparisonTest {
    @Test
    void integersDecimalsAndUuidsAreReadAsTheSourceColumnsTypeAndAMissIsSure() {
        for (List<String> pair : List.of(List.of("int", "integer"), List.of("bigint", "bigint"),
                List.of("smallint", "smallint"), List.of("decimal", "numeric"), List.of("numeric", "numeric"),
                List.of("uniqueidentifier", "uuid"))) {
            MssqlKeyComparison comparison = MssqlKeyComparison.of(pair.get(0), null, source(pair.get(1))).orElseThrow();
            assertThat(comparison.exact()).as(pair.toString()).isEqualTo(KeyMatch.TYPED);
            assertThat(comparison.loose()).isEqualTo(KeyMatch.TYPED);
            assertThat(comparison.surelyMissing("42")).isTrue();
            assertThat(comparison.asSource("12.50")).contains("12.50");
        }
    }

    @Test
    void aDecimalLoadedFromAnIntegerIsSentAsTheIntegerItEqualsOrIsMissingWithoutAsking() {
        MssqlKeyComparison comparison = MssqlKeyComparison.of("decimal", null, source("bigint")).orElseThrow();

        assertThat(comparison.asSource("42.00")).contains("42");
        assertThat(comparison.asSource("-7")).contains("-7");
        assertThat(comparison.asSource("42.50")).isEmpty();
        assertThat(comparison.asSource("99999999999999999999")).as("beyond bigint").isEmpty();
    }

    @Test
    void typesWhoseTextIsNotExactOrWhoseSourceDiffersAreNotCompared() {
        for (List<String> pair : List.of(List.of("datetime2", "timestamp without time zone"),
                List.of("datetime", "timestamp without time zone"), List.of("float", "double precision"),
                List.of("money", "numeric"), List.of("bit", "boolean"), List.of("varbinary", "bytea"),
                List.of("uniqueidentifier", "text"), List.of("int", "numeric"))) {
            assertThat(MssqlKeyComparison.of(pair.get(0), null, source(pair.get(1)))).as(pair.toString()).isEmpty();
        }
    }

    @Test
    void aStringUnderABinaryCollationIgnoresOnlyTrailingSpacesAndAMissIsSure() {
        MssqlKeyComparison comparison = MssqlKeyComparison.of("nvarchar", "Latin1_General_100_BIN2", source("text")).orElseThrow();

        assertThat(comparison).isEqualTo(new MssqlKeyComparison(KeyMatch.TEXT, KeyMatch.TEXT_PADDED, Sureness.ALWAYS, false));
        assertThat(comparison.surelyMissing("Été")).isTrue();
    }

    @Test
    void aStringUnderACaseInsensitiveCollationIgnoresCaseAndIsSureOfPrintableAsciiOnly() {
        MssqlKeyComparison comparison = MssqlKeyComparison.of("varchar", "SQL_Latin1_General_CP1_CI_AS", source("text")).orElseThrow();

        assertThat(comparison.exact()).isEqualTo(KeyMatch.TEXT);
        assertThat(comparison.loose()).isEqualTo(KeyMatch.TEXT_PADDED_CASELESS);
        assertThat(comparison.surelyMissing("ABC-12")).isTrue();
        // Width, kana, other letters' case and ignorable characters are folded by SQL Server, not by the probe.
        assertThat(comparison.surelyMissing("Été")).isFalse();
        assertThat(comparison.surelyMissing("ＡＢＣ")).isFalse();
        assertThat(comparison.surelyMissing("a\u0000")).isFalse();
    }

    @Test
    void aCaseSensitiveCollationKeepsCase() {
        assertThat(MssqlKeyComparison.of("nchar", "Latin1_General_CS_AS", source("character")).orElseThrow())
                .isEqualTo(new MssqlKeyComparison(KeyMatch.TEXT, KeyMatch.TEXT_PADDED, Sureness.PRINTABLE_ASCII, false));
    }

    @Test
    void underAnAccentInsensitiveCollationNoMissIsSure() {
        MssqlKeyComparison comparison = MssqlKeyComparison.of("nvarchar", "Latin1_General_100_CI_AI", source("text")).orElseThrow();

        assertThat(comparison.loose()).isEqualTo(KeyMatch.TEXT_PADDED_CASELESS);
        assertThat(comparison.surelyMissing("Jose")).as("the source may hold José").isFalse();
    }

    /** A source column of PostgreSQL type {@code name} as the PostgreSQL source's key probe describes it. */
    private static SourceKeyType source(String name) {
        return new SourceKeyType(name, TypeFamilies.ofTypeName(name));
    }
}
