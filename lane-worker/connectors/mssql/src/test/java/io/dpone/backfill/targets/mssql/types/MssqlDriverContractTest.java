package io.dpone.backfill.targets.mssql.types;

import io.dpone.backfill.source.SourceColumn;
import io.dpone.backfill.targets.mssql.MssqlPublishedRead;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import static io.dpone.backfill.targets.mssql.types.Columns.collated;
import static io.dpone.backfill.targets.mssql.types.Columns.source;
import static io.dpone.backfill.targets.mssql.types.Columns.target;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adapter's contract with mssql-jdbc 13.2.1, checked without a server (issue 24, build 3): for every source type
 * and every target type and size the type map accepts, every value the source can deliver either fails its guard or
 * leaves the converter as something the driver sends within the metadata the adapter reports
 * ({@link DriverBulkRules}, written from SQLServerBulkCopy's source), carrying the value without loss; and every
 * accepted target type is read back for {@code verify} through a getter the driver's own conversion table allows.
 */
class MssqlDriverContractTest {
    private static final String LATIN = "SQL_Latin1_General_CP1_CI_AS";
    private static final String UTF8 = "Latin1_General_100_CI_AS_SC_UTF8";

    private static final List<String> SOURCES = List.of("int2", "int4", "int8", "numeric", "numeric(5,2)",
            "numeric(10,-2)", "numeric(38,10)", "numeric(3,5)", "float4", "float8", "bool", "uuid", "text", "varchar",
            "varchar(10)", "bpchar(4)", "bpchar(10)", "name", "json", "jsonb", "bytea", "date", "time", "time(0)",
            "time(3)", "timestamp", "timestamp(0)", "timestamp(3)", "timestamptz", "timestamptz(0)", "timestamptz(3)");

    private static List<MssqlColumn> targets() {
        List<MssqlColumn> targets = new ArrayList<>();
        for (String declaration : List.of("smallint", "int", "bigint", "decimal(5,0)", "decimal(5,2)", "decimal(7,0)",
                "decimal(10,0)", "decimal(12,3)", "decimal(19,0)", "decimal(20,1)", "decimal(38,0)", "decimal(38,10)",
                "decimal(38,19)", "decimal(5,5)", "numeric(12,3)", "numeric(38,37)", "real", "float", "bit",
                "nvarchar(1)", "nvarchar(4)", "nvarchar(10)", "nvarchar(63)", "nvarchar(4000)", "nvarchar(max)",
                "nchar(4)", "nchar(10)", "uniqueidentifier", "date", "datetime", "varbinary(16)", "varbinary(8000)",
                "varbinary(max)")) {
            targets.add(target("c", declaration));
        }
        for (String collation : List.of(LATIN, UTF8)) {
            for (String declaration : List.of("varchar(1)", "varchar(4)", "varchar(10)", "varchar(63)", "varchar(8000)",
                    "varchar(max)", "char(4)", "char(10)")) {
                targets.add(collated("c", declaration, collation));
            }
        }
        for (int scale = 0; scale <= 7; scale++) {
            for (String type : List.of("time", "datetime2", "datetimeoffset")) {
                targets.add(target("c", type + "(" + scale + ")"));
            }
        }
        return targets;
    }

    private record Accepted(SourceColumn source, MssqlColumn target, MssqlColumnBinding binding) {
        String pair() {
            return source.declaredType() + " -> " + target.declaration();
        }
    }

    private static List<Accepted> acceptedPairs() {
        List<Accepted> accepted = new ArrayList<>();
        for (String declaration : SOURCES) {
            SourceColumn source = source("c", declaration);
            for (MssqlColumn target : targets()) {
                MssqlTypeCheck check = MssqlTypeMap.check(source, target);
                if (check.isCompatible()) {
                    accepted.add(new Accepted(source, target, check.binding()));
                }
            }
        }
        return accepted;
    }

    @Test
    void theContractCoversEveryTargetTypeTheLoaderWrites() {
        Set<MssqlTargetType> covered = EnumSet.noneOf(MssqlTargetType.class);
        acceptedPairs().forEach(a -> covered.add(MssqlTargetType.byName(a.target().typeName())));

        assertThat(covered).containsExactlyInAnyOrder(MssqlTargetType.values());
    }

    @Test
    void theBulkMetadataCoversEveryValueTheConverterEmits() {
        List<String> broken = new ArrayList<>();
        Set<String> pairsWithoutAnEmittedValue = new LinkedHashSet<>();
        int emittedValues = 0;
        for (Accepted pair : acceptedPairs()) {
            boolean emitted = false;
            for (Object decoded : EdgeValues.of(pair.source())) {
                Object sent;
                try {
                    sent = pair.binding().bulkValue(decoded, () -> "(1)");
                } catch (MssqlValueRejectedException refused) {
                    continue; // a guard stops it: it never reaches the driver
                } catch (RuntimeException e) {
                    broken.add(pair.pair() + ": " + shown(decoded) + " threw " + e);
                    continue;
                }
                emitted = true;
                emittedValues++;
                for (String rule : DriverBulkRules.violations(pair.binding().bulkColumn(), pair.target(), sent)) {
                    broken.add(pair.pair() + ": " + shown(decoded) + " -> " + rule);
                }
                String lost = TemporalText.lost(pair.target(), decoded, sent);
                if (lost != null) {
                    broken.add(pair.pair() + ": " + shown(decoded) + " -> " + lost);
                }
            }
            if (!emitted) {
                pairsWithoutAnEmittedValue.add(pair.pair());
            }
        }

        assertThat(broken).as("values the driver or the server would refuse, or that would change").isEmpty();
        assertThat(pairsWithoutAnEmittedValue).as("accepted pairs no edge value got through").isEmpty();
        assertThat(emittedValues).isGreaterThan(1000);
    }

    /** The published-digest reader: target type -> getter -> allowed by DataTypes.GetterConversion. */
    @Test
    void everyAcceptedTargetIsReadBackThroughAGetterTheDriverAllows() throws Exception {
        List<String> refused = new ArrayList<>();
        for (Accepted pair : acceptedPairs()) {
            MssqlPublishedRead read = MssqlPublishedRead.of(pair.source().family(), pair.target().typeName());
            String ssType = DriverGetterConversions.ssType(pair.target());
            if (!DriverGetterConversions.converts(ssType, read.driverJdbcType())) {
                refused.add(pair.pair() + ": " + read + " asks " + read.driverJdbcType() + " of " + ssType);
            }
        }

        assertThat(refused).isEmpty();
    }

    @Test
    void theDriversTableRefusesWhatIssue24SawRefused() throws Exception {
        // The mutation guard of the test above: reading a datetime2 as OffsetDateTime is what verify used to do.
        assertThat(DriverGetterConversions.converts("DATETIME2", "DATETIMEOFFSET")).isFalse();
        assertThat(DriverGetterConversions.converts("DATETIMEOFFSET", "DATETIMEOFFSET")).isTrue();
        assertThat(DriverGetterConversions.converts("DATETIME2", "LOCALDATETIME")).isTrue();
    }

    private static String shown(Object decoded) {
        String text = ShownValue.of(decoded);
        return text.length() > 60 ? text.substring(0, 60) + "..." : text;
    }

    /** The temporal text read back the way its target type parses it must be the decoded value, with no more digits. */
    static final class TemporalText {
        private static final DateTimeFormatter SPACED = new DateTimeFormatterBuilder()
                .appendPattern("uuuu-MM-dd HH:mm:ss").optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
                .optionalEnd().toFormatter(Locale.ROOT);
        private static final DateTimeFormatter WITH_OFFSET = new DateTimeFormatterBuilder().append(SPACED)
                .appendPattern(" xxx").toFormatter(Locale.ROOT);

        private TemporalText() {
        }

        static String lost(MssqlColumn target, Object decoded, Object sent) {
            if (!(sent instanceof String text)) {
                return null;
            }
            Object read;
            switch (target.typeName()) {
                case "date" -> read = LocalDate.parse(text);
                case "time" -> read = LocalTime.parse(text);
                case "datetime" -> read = LocalDateTime.parse(text);
                case "datetime2" -> read = LocalDateTime.parse(text, SPACED);
                case "datetimeoffset" -> read = OffsetDateTime.parse(text, WITH_OFFSET);
                default -> {
                    return null;
                }
            }
            Object expected = decoded instanceof OffsetDateTime at && "datetime2".equals(target.typeName())
                    ? at.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime() : decoded;
            if (!read.equals(expected)) {
                return "'" + text + "' reads back as " + read;
            }
            int dot = text.indexOf('.');
            int digits = dot < 0 ? 0 : (int) text.substring(dot + 1).chars().takeWhile(Character::isDigit).count();
            int scale = "datetime".equals(target.typeName()) || "date".equals(target.typeName()) ? 3 : target.scale();
            if (digits > scale) {
                return "'" + text + "' has " + digits + " fractional digits, the target keeps " + scale
                        + " (SQL Server would round)";
            }
            return null;
        }
    }

    /**
     * mssql-jdbc's own getter conversion table (DataTypes.java: SSType.convertsTo(JDBCType), checked by
     * ServerDTVImpl.getValue, which throws R_unsupportedConversionFromTo): package-private, so read by reflection.
     */
    static final class DriverGetterConversions {
        private DriverGetterConversions() {
        }

        /** The driver's SSType constant for a sys.types name; (max) types have their own. */
        static String ssType(MssqlColumn target) {
            String type = target.typeName();
            return switch (type) {
                case "int" -> "INTEGER";
                case "uniqueidentifier" -> "GUID";
                case "nvarchar", "varchar", "varbinary" -> type.toUpperCase(Locale.ROOT) + (target.isMax() ? "MAX" : "");
                default -> type.toUpperCase(Locale.ROOT);
            };
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        static boolean converts(String ssType, String jdbcType) throws ReflectiveOperationException {
            Class<? extends Enum> ss = (Class<? extends Enum>) Class.forName("com.microsoft.sqlserver.jdbc.SSType");
            Class<? extends Enum> jdbc = (Class<? extends Enum>) Class.forName("com.microsoft.sqlserver.jdbc.JDBCType");
            Method convertsTo = ss.getDeclaredMethod("convertsTo", jdbc);
            convertsTo.setAccessible(true);
            return (boolean) convertsTo.invoke(Enum.valueOf(ss, ssType), Enum.valueOf(jdbc, jdbcType));
        }
    }
}
