package io.dpone.backfill.targets.mssql.types;

import io.dpone.backfill.source.SourceColumn;
import io.dpone.backfill.source.TypeFamily;

import java.util.List;
import java.util.stream.Collectors;

/** One source column facing one target column while the map decides; it words both verdicts the same way. */
final class TypePair {
    private final SourceColumn source;
    private final MssqlColumn target;
    private final MssqlTargetType targetType;

    TypePair(SourceColumn source, MssqlColumn target, MssqlTargetType targetType) {
        this.source = source;
        this.target = target;
        this.targetType = targetType;
    }

    TypeFamily family() {
        return source.family();
    }

    SourceColumn source() {
        return source;
    }

    MssqlColumn target() {
        return target;
    }

    MssqlTargetType targetType() {
        return targetType;
    }

    /** e.g. {@code source column "amount" numeric(7,2) -> target column "amount" decimal(5,2) NULL}. */
    String describe() {
        return "source column \"" + source.name() + "\" " + source.declaredType() + " -> target column \""
                + target.name() + "\" " + target.declaration();
    }

    MssqlTypeCheck accept(BulkValueConverter converter, ValueGuard... guards) {
        List<ValueGuard> guardList = List.of(guards);
        String checks = guardList.isEmpty() ? "no value guard needed"
                : "guarded per value: " + guardList.stream().map(ValueGuard::rule).collect(Collectors.joining("; "));
        MssqlColumnBinding binding = new MssqlColumnBinding(source.name(), source.declaredType() + " -> "
                + target.declaration(), target.nullable(), guardList, converter, MssqlBulkColumn.of(target, targetType));
        return MssqlTypeCheck.compatible(binding, describe() + ": compatible, " + checks);
    }

    MssqlTypeCheck refuse(String why) {
        return MssqlTypeCheck.incompatible(describe() + ": incompatible, " + why);
    }
}
