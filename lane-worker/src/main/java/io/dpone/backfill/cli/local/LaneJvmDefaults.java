package io.dpone.backfill.cli.local;

import io.dpone.backfill.core.campaign.TargetType;

import java.util.List;

/**
 * The JVM options a local lane starts with, before the user's own (BACKFILL_LANE_JAVA_OPTS), which win (ADR 0026).
 * A lane into PostgreSQL runs with the C1 compiler only: it streams COPY bytes and digests them, work that C1 code
 * keeps up with, while C2's compile burst in every lane took the cores the lanes and the databases needed (4 lanes on
 * 2 cores: the campaign 12 % faster at 4M rows, 3 % at 10M). A lane into SQL Server converts every value in Java
 * for the bulk copy, where C2 code pays off; it keeps the JVM's default (not measured: no SQL Server here).
 */
public final class LaneJvmDefaults {
    static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

    private LaneJvmDefaults() {
    }

    public static List<String> of(TargetType target) {
        return target == TargetType.POSTGRES ? List.of(C1_ONLY) : List.of();
    }
}
