package io.dpone.backfill.cli.local;

import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.wiring.Connectors;

import java.util.List;

/**
 * The JVM options a local lane starts with, before the user's own (BACKFILL_LANE_JAVA_OPTS), which win (ADR 0026):
 * what the target's adapter asks for its lanes ({@code TargetAdapter.laneJvmOptions}). A lane into SQL Server converts
 * every value in Java for the bulk copy, where C2 code pays off; it keeps the JVM's default (not measured: no SQL
 * Server here).
 */
public final class LaneJvmDefaults {
    private LaneJvmDefaults() {
    }

    public static List<String> of(TargetType target) {
        return Connectors.target(target).laneJvmOptions();
    }
}
