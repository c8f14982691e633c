package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.SourceGuardSpec;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.source.SourceLoadProbe;

import java.util.Optional;

/**
 * The driver's half of the source guard (issue 28): it reads the source's load (one probe a campaign, not one a
 * lane) and records a pause in the ledger, where every lane reads it before it claims. Only a change is written: the
 * reason recorded when the pause began stands until it ends, so the status it feeds does not change at every look.
 */
public final class SourceGuardKeeper {
    /** A change of the pause: {@code reason} null when claims resume. */
    public record Change(String reason) {
        public boolean paused() {
            return reason != null;
        }
    }

    private SourceGuardKeeper() {
    }

    /** Looks at the source while loading; clears a pause when the guard is gone. Returns what changed, if anything. */
    public static Optional<Change> apply(SourceLoadProbe probe, LedgerStore ledger, String runKey, BackfillCampaignSpec spec) {
        SourceGuardSpec bounds = spec.getThrottle() == null ? null : spec.getThrottle().getSourceGuard();
        boolean paused = ledger.sourcePause(runKey).isPresent();
        Optional<String> now = bounds == null ? Optional.empty() : SourceGuard.pause(bounds, probe.read(), paused);
        if (now.isPresent() == paused) {
            return Optional.empty();
        }
        ledger.recordSourcePause(runKey, now.orElse(null));
        return Optional.of(new Change(now.orElse(null)));
    }
}
