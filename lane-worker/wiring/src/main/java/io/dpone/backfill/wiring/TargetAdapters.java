package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.targets.TargetAdapter;

/**
 * The target half of {@link Connectors}, under its old name: the operator's {@code CampaignDriver} still calls it and
 * switches to {@link Connectors} once the driver loop (ADR 0050) and the connectors (ADR 0051) have both merged
 * (issue 37). Nothing new calls it.
 */
public final class TargetAdapters {
    private TargetAdapters() {
    }

    public static TargetAdapter of(TargetType type) {
        return Connectors.target(type);
    }
}
