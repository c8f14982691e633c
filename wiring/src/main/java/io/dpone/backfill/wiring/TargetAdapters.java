package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.target.TargetAdapter;

/**
 * The target half of {@link Connectors}, under its old name: the two campaign drivers still call it and switch to
 * {@link Connectors} when the one driver loop lands (issue 37, items 1 and 3). Nothing new calls it.
 */
public final class TargetAdapters {
    private TargetAdapters() {
    }

    public static TargetAdapter of(TargetType type) {
        return Connectors.target(type);
    }
}
