package io.dpone.backfill.source.postgres.binary;

import io.dpone.backfill.source.SourceColumn;
import io.dpone.backfill.source.TypeFamily;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** What a target learns of a PostgreSQL column through the SPI: the family of its values and their bounds. */
class TypeFamiliesTest {
    /** varchar(n) and bpchar(n) store n + 4; numeric(p,s) ((p << 16) | (s & 0x7ff)) + 4. */
    private static int numericTypmod(int precision, int scale) {
        return ((precision << 16) | (scale & 0x7ff)) + 4;
    }

    private static SourceColumn column(String declared, PgType type, int typmod) {
        return TypeFamilies.describe(new PlannedColumn("c", declared, PlannedColumn.Kind.BASE, type, typmod, "\"c\""));
    }

    @Test
    void eachIntegerWidthIsAFamilyOfItsOwn() {
        assertThat(Arrays.asList(TypeFamilies.of(PgType.INT2), TypeFamilies.of(PgType.INT4), TypeFamilies.of(PgType.INT8)))
                .containsExactly(TypeFamily.INT16, TypeFamily.INT32, TypeFamily.INT64);
        assertThat(TypeFamily.INT64.integer()).isTrue();
        assertThat(TypeFamily.DECIMAL.integer()).isFalse();
    }

    @Test
    void aDeclaredNumericCarriesItsPrecisionAndScaleNegativeScalesIncluded() {
        SourceColumn money = column("numeric(12,3)", PgType.NUMERIC, numericTypmod(12, 3));
        SourceColumn hundreds = column("numeric(5,-2)", PgType.NUMERIC, numericTypmod(5, -2));

        assertThat(money.family()).isEqualTo(TypeFamily.DECIMAL);
        assertThat(money.constrainedDecimal()).isTrue();
        assertThat(tuple(money.precision(), money.scale())).isEqualTo(tuple(12, 3));
        assertThat(tuple(hundreds.precision(), hundreds.scale())).isEqualTo(tuple(5, -2));
    }

    @Test
    void anUnconstrainedNumericHasNoPrecision() {
        SourceColumn any = column("numeric", PgType.NUMERIC, -1);

        assertThat(any.constrainedDecimal()).isFalse();
        assertThat(any.precision()).isEqualTo(-1);
    }

    @Test
    void varcharAndCharacterCarryTheirLengthAndOnlyCharacterIsPadded() {
        SourceColumn varying = column("character varying(40)", PgType.VARCHAR, 44);
        SourceColumn fixed = column("character(3)", PgType.BPCHAR, 7);

        assertThat(tuple(varying.family(), varying.length())).isEqualTo(tuple(TypeFamily.TEXT, 40));
        assertThat(tuple(fixed.family(), fixed.length())).isEqualTo(tuple(TypeFamily.FIXED_TEXT, 3));
        assertThat(column("character varying", PgType.VARCHAR, -1).length()).as("no declared length").isEqualTo(-1);
    }

    @Test
    void aNameHoldsAtMostSixtyThreeCharacters() {
        assertThat(column("name", PgType.NAME, -1).length()).isEqualTo(63);
    }

    @Test
    void textJsonAndWhatArrivesCastToTextAreUnbounded() {
        SourceColumn mood = TypeFamilies.describe(new PlannedColumn("mood", "mood", PlannedColumn.Kind.ENUM, PgType.TEXT, -1,
                "\"mood\"::pg_catalog.text"));

        assertThat(tuple(column("text", PgType.TEXT, -1).family(), column("text", PgType.TEXT, -1).length()))
                .isEqualTo(tuple(TypeFamily.TEXT, -1));
        assertThat(tuple(mood.family(), mood.length(), mood.declaredType())).isEqualTo(tuple(TypeFamily.TEXT, -1, "mood"));
        assertThat(column("jsonb", PgType.JSONB, -1).family()).isEqualTo(TypeFamily.JSON);
        assertThat(column("json", PgType.JSON, -1).family()).isEqualTo(TypeFamily.JSON);
    }

    @Test
    void timesKeepTheirDeclaredFractionAndMicrosecondsWhenNoneIsDeclared() {
        SourceColumn stamped = column("timestamp(3) with time zone", PgType.TIMESTAMPTZ, 3);
        SourceColumn local = column("timestamp without time zone", PgType.TIMESTAMP, -1);

        assertThat(tuple(stamped.family(), stamped.precision())).isEqualTo(tuple(TypeFamily.TIMESTAMP_TZ, 3));
        assertThat(tuple(local.family(), local.precision())).isEqualTo(tuple(TypeFamily.TIMESTAMP, 6));
        assertThat(column("time", PgType.TIME, -1).precision()).isEqualTo(TypeFamily.MAX_FRACTION_DIGITS);
        assertThat(column("date", PgType.DATE, -1).precision()).as("a date has no fraction").isEqualTo(-1);
    }

    @Test
    void theColumnsNamesAndNullabilityTravelForTheTargetsMessages() {
        SourceColumn id = TypeFamilies.describe(new PlannedColumn("id", "integer", PlannedColumn.Kind.BASE, PgType.INT4, -1,
                "\"id\"", false));

        assertThat(tuple(id.name(), id.declaredType(), id.arrivingType(), id.nullable()))
                .isEqualTo(tuple("id", "integer", "int4", false));
    }

    @Test
    void everyDecodedTypeBelongsToAFamilyATargetCanLoad() {
        assertThat(Arrays.stream(PgType.values()).map(TypeFamilies::of)).doesNotContain(TypeFamily.OTHER);
    }

    @Test
    void aKeyProbesTypeNameMapsBuiltInsAndLeavesDomainsAndEnumsAsOther() {
        assertThat(TypeFamilies.ofTypeName("integer")).isEqualTo(TypeFamily.INT32);
        assertThat(TypeFamilies.ofTypeName("numeric")).isEqualTo(TypeFamily.DECIMAL);
        assertThat(TypeFamilies.ofTypeName("uuid")).isEqualTo(TypeFamily.UUID);
        assertThat(TypeFamilies.ofTypeName("character varying")).isEqualTo(TypeFamily.TEXT);
        assertThat(TypeFamilies.ofTypeName("timestamp with time zone")).isEqualTo(TypeFamily.TIMESTAMP_TZ);
        assertThat(TypeFamilies.ofTypeName("order_code")).as("a domain is compared as its own type").isEqualTo(TypeFamily.OTHER);
        assertThat(TypeFamilies.ofTypeName("integer[]")).isEqualTo(TypeFamily.OTHER);
    }
}
