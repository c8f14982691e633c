package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.target.TargetAdapter;
import io.dpone.backfill.target.mssql.MssqlTargetAdapter;
import io.dpone.backfill.target.postgres.PostgresTargetAdapter;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The registry of target adapters, one per target type: the one place that decides whether a target type can
 * run in this build. Every driver asks it before opening any connection. A new target type is one entry here.
 */
public final class TargetAdapters {
    private static final TargetAdapters BUILT_IN = new TargetAdapters(List.of(
            new PostgresTargetAdapter(),
            new MssqlTargetAdapter()));

    private final Map<TargetType, TargetAdapter> adapters = new EnumMap<>(TargetType.class);

    TargetAdapters(List<TargetAdapter> adapters) {
        adapters.forEach(a -> this.adapters.put(a.type(), a));
    }

    /** The built-in adapter for {@code type}; {@link UnsupportedTargetException} when none is registered. */
    public static TargetAdapter of(TargetType type) {
        return BUILT_IN.adapterFor(type);
    }

    TargetAdapter adapterFor(TargetType type) {
        TargetAdapter adapter = adapters.get(type);
        if (adapter == null) {
            throw new UnsupportedTargetException("target type " + type.wireName() + " has no adapter in this build;"
                    + " `backfill plan` works for it, running needs its adapter");
        }
        return adapter;
    }
}
