package io.dpone.backfill.targets.mssql.types;

import io.dpone.backfill.source.SourceColumn;
import io.dpone.backfill.source.postgres.binary.PlannedColumn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static io.dpone.backfill.targets.mssql.types.Columns.collated;
import static io.dpone.backfill.targets.mssql.types.Columns.source;
import static io.dpone.backfill.targets.mssql.types.Columns.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every pair of the type map (src-docs/sqlserver-type-map.md), accepted or refused, with the guards it carries. */
class MssqlTypeMapTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            int2           | smallint          | 0
            int2           | int               | 0
            int2           | bigint            | 0
            int2           | decimal(5,0)      | 0
            int2           | numeric(7,2)      | 0
            int4           | int               | 0
            int4           | bigint            | 0
            int4           | decimal(10,0)     | 0
            int8           | bigint            | 0
            int8           | decimal(19,0)     | 0
            int8           | decimal(38,19)    | 0
            numeric(5,2)   | decimal(5,2)      | 1
            numeric(5,2)   | decimal(6,3)      | 1
            numeric(5,2)   | numeric(38,10)    | 1
            numeric(5,-2)  | decimal(7,0)      | 1
            numeric(3,5)   | decimal(5,5)      | 1
            numeric        | decimal(5,2)      | 3
            numeric        | decimal(38,10)    | 3
            float4         | real              | 2
            float4         | float             | 1
            float8         | float             | 2
            bool           | bit               | 0
            text           | nvarchar(max)     | 0
            text           | nvarchar(1)       | 1
            varchar(10)    | nvarchar(10)      | 1
            varchar(10)    | nvarchar(4000)    | 1
            varchar        | nvarchar(5)       | 1
            bpchar(4)      | nvarchar(4)       | 1
            name           | nvarchar(63)      | 1
            name           | nvarchar(max)     | 0
            json           | nvarchar(max)     | 0
            jsonb          | nvarchar(100)     | 1
            text           | varchar(max)      | 1
            varchar(10)    | varchar(10)       | 2
            uuid           | uniqueidentifier  | 0
            date           | date              | 2
            time           | time(7)           | 1
            time           | time(6)           | 1
            time(3)        | time(3)           | 2
            timestamp      | datetime2(7)      | 2
            timestamp      | datetime2(6)      | 2
            timestamp(0)   | datetime2(0)      | 3
            timestamp      | datetime          | 3
            timestamptz    | datetimeoffset(7) | 3
            timestamptz(2) | datetimeoffset(2) | 4
            timestamptz    | datetime2(7)      | 2
            bytea          | varbinary(max)    | 0
            bytea          | varbinary(16)     | 1
            """)
    void acceptedPairsCarryTheirGuards(String sourceType, String targetType, int guards) {
        MssqlTypeCheck check = MssqlTypeMap.check(source("c", sourceType), target("c", targetType));

        assertThat(check.isCompatible()).as(check.message()).isTrue();
        assertThat(check.binding().rules()).as(check.message()).hasSize(guards);
        assertThat(check.message()).contains("compatible").doesNotContain("incompatible");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            int2           | decimal(4,0)      | int2 values have up to 5 digits; decimal(4,0) NULL holds 4 integer digits
            int2           | decimal(6,2)      | holds 4 integer digits
            int2           | bit               | a int2 column loads into smallint, int, bigint or decimal/numeric
            int4           | smallint          | a int4 column loads into int, bigint
            int8           | int               | a int8 column loads into bigint or decimal/numeric with at least 19
            int8           | decimal(18,0)     | int8 values have up to 19 digits
            int8           | float             | loads into bigint
            numeric(7,2)   | decimal(5,2)      | the source holds 5 integer digits, the target 3
            numeric(5,2)   | decimal(5,1)      | the source keeps 2 decimal places, the target 1; values would be rounded
            numeric(5,-2)  | decimal(6,0)      | the source holds 7 integer digits, the target 6
            numeric        | float             | a numeric column loads into decimal or numeric only
            float8         | real              | float8 values would be rounded to real's 24-bit mantissa
            float4         | decimal(38,10)    | a float4 column loads into real or float(53)
            float8         | decimal(38,10)    | a float8 column loads into float(53) only
            bool           | int               | a bool column loads into bit only
            varchar(10)    | nvarchar(9)       | the source allows 10 characters, the target holds 9
            bpchar(4)      | varchar(3)        | the source allows 4 characters, the target holds 3
            name           | nvarchar(62)      | the source allows 63 characters, the target holds 62
            text           | varbinary(max)    | a text column loads into nvarchar(n|max), or varchar(n|max)
            uuid           | nvarchar(36)      | a uuid column loads into uniqueidentifier only
            date           | datetime2(7)      | a date column loads into date only
            time           | time(5)           | the source keeps 6 fractional-second digits, the target 5
            time           | datetime2(7)      | a time column loads into time(p) only
            timestamp      | datetime2(5)      | the source keeps 6 fractional-second digits, the target 5
            timestamp(3)   | datetime2(2)      | the source keeps 3 fractional-second digits, the target 2
            timestamp      | datetimeoffset(7) | a timestamp column loads into datetime2(p), or datetime
            timestamptz    | datetime          | a timestamptz column loads into datetimeoffset(p), or datetime2(p) as UTC
            timestamptz    | datetimeoffset(3) | the source keeps 6 fractional-second digits, the target 3
            timestamptz    | datetime2(3)      | the source keeps 6 fractional-second digits, the target 3
            bytea          | nvarchar(max)     | a bytea column loads into varbinary(n|max) only
            text           | xml               | the loader writes no xml column; it writes smallint, int
            numeric(19,4)  | money             | the loader writes no money column
            """)
    void refusedPairsSayWhy(String sourceType, String targetType, String why) {
        MssqlTypeCheck check = MssqlTypeMap.check(source("c", sourceType), target("c", targetType));

        assertThat(check.isCompatible()).as(check.message()).isFalse();
        assertThat(check.message()).contains("incompatible").contains(why);
        assertThatThrownBy(check::binding).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRefusalNamesBothColumnsAndBothTypes() {
        MssqlTypeCheck check = MssqlTypeMap.check(source("price", "numeric(7,2)"), Columns.notNull("unit_price", "decimal(5,2)"));

        assertThat(check.message()).isEqualTo("source column \"price\" numeric(7,2) -> target column \"unit_price\" "
                + "decimal(5,2) NOT NULL: incompatible, the source holds 5 integer digits, the target 3 (precision - scale)");
    }

    @Test
    void anAcceptanceListsTheRulesItsValuesMeet() {
        MssqlTypeCheck check = MssqlTypeMap.check(source("doc", "text"), target("doc", "nvarchar(20)"));

        assertThat(check.message()).isEqualTo("source column \"doc\" text -> target column \"doc\" nvarchar(20) NULL: "
                + "compatible, guarded per value: nvarchar(20) holds 20 UTF-16 code units "
                + "(a character outside the Basic Multilingual Plane counts 2)");
    }

    @Test
    void enumsAndArraysArriveAsTextAndLoadLikeText() {
        SourceColumn mood = Columns.castToText("mood", "mood", PlannedColumn.Kind.ENUM);
        SourceColumn tags = Columns.castToText("tags", "text[]", PlannedColumn.Kind.ARRAY);

        assertThat(MssqlTypeMap.check(mood, target("mood", "nvarchar(10)")).isCompatible()).isTrue();
        assertThat(MssqlTypeMap.check(tags, target("tags", "nvarchar(max)")).isCompatible()).isTrue();
        assertThat(MssqlTypeMap.check(tags, target("tags", "int")).message())
                .startsWith("source column \"tags\" text[] -> target column \"tags\" int NULL: incompatible");
    }

    @Test
    void varcharGuardsDependOnTheCollation() {
        MssqlTypeCheck codePage = MssqlTypeMap.check(source("v", "text"), collated("v", "varchar(10)", "Latin1_General_CI_AS"));
        MssqlTypeCheck utf8 = MssqlTypeMap.check(source("v", "text"), collated("v", "varchar(10)", "Latin1_General_100_CI_AS_SC_UTF8"));
        MssqlTypeCheck utf8Max = MssqlTypeMap.check(source("v", "text"), collated("v", "varchar(max)", "Latin1_General_100_CI_AS_SC_UTF8"));

        assertThat(codePage.binding().rules()).containsExactly(
                "varchar or char without a UTF-8 collation accepts ASCII text only (other characters depend on the code page)",
                "varchar(10) holds 10 bytes, one per ASCII character");
        assertThat(utf8.binding().rules()).containsExactly("varchar(10) with a UTF-8 collation holds 10 bytes of UTF-8");
        assertThat(utf8Max.binding().rules()).isEmpty();
    }

    /**
     * Issue 24, why 5: character(n) into nchar(n)/char(n). PostgreSQL sends character(n) padded to n characters;
     * SQL Server pads nchar(n) to n UTF-16 code units and char(n) to n bytes (MicrosoftDocs sql-docs,
     * docs/t-sql/data-types/nchar-and-nvarchar-transact-sql.md, char-and-varchar-transact-sql.md). The stored
     * texts, and so the digests (ADR 0018), agree only for the same n with each value inside n units or bytes.
     */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            bpchar(3)  | nchar(3)  | SQL_Latin1_General_CP1_CI_AS     | nchar(3) holds 3 UTF-16 code units (a character outside the Basic Multilingual Plane counts 2)
            bpchar(3)  | char(3)   | Latin1_General_100_CI_AS_SC_UTF8 | char(3) with a UTF-8 collation holds 3 bytes of UTF-8
            bpchar(3)  | char(3)   | SQL_Latin1_General_CP1_CI_AS     | char(3) holds 3 bytes, one per ASCII character
            """)
    void characterLoadsIntoAFixedLengthTypeOfTheSameLength(String sourceType, String targetType, String collation,
                                                           String lengthRule) {
        MssqlTypeCheck check = MssqlTypeMap.check(source("code", sourceType), collated("code", targetType, collation));

        assertThat(check.isCompatible()).as(check.message()).isTrue();
        assertThat(check.binding().rules()).contains(lengthRule);
        assertThat(check.binding().bulkColumn().precision()).isEqualTo(3);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            bpchar(3)   | nchar(4) | character(3) loads into nchar(3) only: SQL Server pads to its own length
            bpchar(4)   | char(3)  | character(4) loads into char(4) only
            text        | nchar(3) | only a character(n) column loads into nchar(n): SQL Server pads every value to n
            varchar(3)  | char(3)  | only a character(n) column loads into char(n)
            bpchar      | nchar(1) | only a character(n) column loads into nchar(n)
            """)
    void aFixedLengthTargetThatWouldPadDifferentlyIsRefused(String sourceType, String targetType, String why) {
        MssqlTypeCheck check = MssqlTypeMap.check(source("code", sourceType), target("code", targetType));

        assertThat(check.isCompatible()).as(check.message()).isFalse();
        assertThat(check.message()).contains(why);
    }

    @Test
    void aPaddedValueWithinTheLengthPassesAsItArrivedAndOneBeyondIsRefused() throws Exception {
        MssqlColumnBinding nchar = MssqlTypeMap.check(source("code", "bpchar(3)"), target("code", "nchar(3)")).binding();

        assertThat(nchar.bulkValue("é  ", () -> "(1)")).isEqualTo("é  ");
        // U+1F600 takes two UTF-16 code units: padded to 3 characters it is 4 units, more than nchar(3) holds.
        assertThatThrownBy(() -> nchar.bulkValue("\uD83D\uDE00  ", () -> "(1)"))
                .isInstanceOf(MssqlValueRejectedException.class).hasMessageContaining("nchar(3) holds 3 UTF-16 code units");
    }

    @Test
    void aNotNullTargetIsAcceptedAndRefusesNullPerValue() {
        MssqlTypeCheck check = MssqlTypeMap.check(source("id", "int4"), Columns.notNull("id", "bigint"));

        assertThat(check.isCompatible()).isTrue();
        assertThat(check.message()).contains("target column \"id\" bigint NOT NULL");
    }

    @Test
    void floatWithAnotherPrecisionThanTheCatalogsIsRefused() {
        MssqlColumn odd = new MssqlColumn("f", "float", 8, 24, 0, true, null);

        assertThat(MssqlTypeMap.check(source("f", "float8"), odd).message())
                .contains("float is expected with precision 53, the catalog says 24");
    }
}
