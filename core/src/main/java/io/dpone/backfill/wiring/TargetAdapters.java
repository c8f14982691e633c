package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.target.TargetAdapter;
import io.dpone.backfill.target.postgres.PostgresTargetAdapter;

import java.util.EnumMap;
import java.util.Map;

/**
 * The registry of target adapters, one per target type: the one place that decides whether a target type can
 * run in this build. Every driver asks it before opening any connection.
 */
public final class TargetAdapters {
    private static final Map<TargetType, TargetAdapter> ADAPTERS = new EnumMap<>(TargetType.class);

    static {
        register(new PostgresTargetAdapter());
    }

    private TargetAdapters() {
    }

    private static void register(TargetAdapter adapter) {
        ADAPTERS.put(adapter.type(), adapter);
    }

    /** The adapter for {@code type}; {@link UnsupportedTargetException} when none is registered. */
    public static TargetAdapter of(TargetType type) {
        TargetAdapter adapter = ADAPTERS.get(type);
        if (adapter == null) {
            throw new UnsupportedTargetException("target type " + type.wireName() + " has no adapter in this build yet;"
                    + " `backfill plan` works for it, running needs the SQL Server adapter");
        }
        return adapter;
    }
}
