package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.SourceType;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.source.SourceAdapter;
import io.dpone.backfill.source.postgres.PostgresSourceAdapter;
import io.dpone.backfill.targets.TargetAdapter;
import io.dpone.backfill.targets.mssql.MssqlTargetAdapter;
import io.dpone.backfill.targets.postgres.PostgresTargetAdapter;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The registry of connectors: one source adapter per source type, one target adapter per target type, the one place
 * that decides whether a route can run in this build and the only place that names the database connectors. Every
 * driver, command and lane asks it before opening any connection. A new source or target is one entry here.
 */
public final class Connectors {
    private static final Connectors BUILT_IN = new Connectors(
            List.of(new PostgresSourceAdapter()),
            List.of(new PostgresTargetAdapter(), new MssqlTargetAdapter()));

    private final Map<SourceType, SourceAdapter> sources = new EnumMap<>(SourceType.class);
    private final Map<TargetType, TargetAdapter> targets = new EnumMap<>(TargetType.class);

    Connectors(List<SourceAdapter> sources, List<TargetAdapter> targets) {
        sources.forEach(a -> this.sources.put(a.type(), a));
        targets.forEach(a -> this.targets.put(a.type(), a));
    }

    /** The built-in adapter for {@code type}; {@link UnsupportedSourceException} when none is registered. */
    public static SourceAdapter source(SourceType type) {
        return BUILT_IN.sourceFor(type);
    }

    /** The built-in adapter for {@code type}; {@link UnsupportedTargetException} when none is registered. */
    public static TargetAdapter target(TargetType type) {
        return BUILT_IN.targetFor(type);
    }

    SourceAdapter sourceFor(SourceType type) {
        SourceAdapter adapter = sources.get(type);
        if (adapter == null) {
            throw new UnsupportedSourceException("source type " + type.wireName() + " has no adapter in this build");
        }
        return adapter;
    }

    TargetAdapter targetFor(TargetType type) {
        TargetAdapter adapter = targets.get(type);
        if (adapter == null) {
            throw new UnsupportedTargetException("target type " + type.wireName() + " has no adapter in this build;"
                    + " `backfill plan` works for it, running needs its adapter");
        }
        return adapter;
    }
}
