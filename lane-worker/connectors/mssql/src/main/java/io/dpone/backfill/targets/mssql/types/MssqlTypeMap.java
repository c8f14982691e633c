package io.dpone.backfill.targets.mssql.types;

import io.dpone.backfill.source.SourceColumn;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Which SQL Server column may receive which source column (by its type family, whatever the source engine), decided before anything is created (doctor
 * calls it on the reviewed target columns). A pair is refused when some value the source type allows could not be
 * held; it is accepted with value guards when only some values could not, so those fail the chunk as they arrive.
 * The pairs are listed in src-docs/sqlserver-type-map.md.
 */
public final class MssqlTypeMap {
    private MssqlTypeMap() {
    }

    public static MssqlTypeCheck check(SourceColumn source, MssqlColumn target) {
        MssqlTargetType targetType = MssqlTargetType.byName(target.typeName());
        TypePair pair = new TypePair(source, target, targetType);
        if (targetType == null) {
            return pair.refuse("the loader writes no " + target.typeName() + " column; it writes "
                    + Arrays.stream(MssqlTargetType.values()).map(MssqlTargetType::typeName).collect(Collectors.joining(", ")));
        }
        return switch (source.family()) {
            case INT16, INT32, INT64 -> NumberPairs.integer(pair);
            case DECIMAL -> NumberPairs.numeric(pair);
            case FLOAT32, FLOAT64 -> NumberPairs.floating(pair);
            case BOOLEAN -> targetType == MssqlTargetType.BIT ? pair.accept(BulkValueConverters.AS_IS)
                    : pair.refuse("a bool column loads into bit only");
            case UUID -> targetType == MssqlTargetType.UNIQUEIDENTIFIER ? pair.accept(BulkValueConverters.UUID_TEXT)
                    : pair.refuse("a uuid column loads into uniqueidentifier only");
            case TEXT, FIXED_TEXT, JSON -> TextPairs.text(pair);
            case BINARY -> TextPairs.bytea(pair);
            case DATE, TIME, TIMESTAMP, TIMESTAMP_TZ -> TemporalPairs.temporal(pair);
            case OTHER -> pair.refuse("the source hands over no value the loader could write");
        };
    }
}
