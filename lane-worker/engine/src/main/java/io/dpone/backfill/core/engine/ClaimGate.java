package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.PublicationWindowSpec;
import io.dpone.backfill.core.campaign.SourceGuardSpec;
import io.dpone.backfill.core.campaign.SwapWindow;
import io.dpone.backfill.core.ledger.ClaimPause;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.source.SourceLoadProbe;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The driver's half of pausing claims (issue 28): outside the load windows, or while the source guard finds the
 * source busy (one probe a campaign, not one a lane), it records a pause in the ledger, where every lane reads it
 * before it claims. Only a change of reason is written: the message of the moment the pause began stands until it
 * ends, so the status it feeds does not change at every look. The windows come first: outside them the source is
 * not even probed.
 */
public final class ClaimGate {
    /** A change of the pause: {@code pause} null when the lanes may claim again. */
    public record Change(ClaimPause pause) {
        public boolean paused() {
            return pause != null;
        }
    }

    private ClaimGate() {
    }

    /** Looks at the windows and the source at {@code now}; returns what changed in the ledger, if anything. */
    public static Optional<Change> apply(SourceLoadProbe probe, Instant now, LedgerStore ledger, String runKey,
                                         BackfillCampaignSpec spec) {
        Optional<ClaimPause> before = ledger.claimPause(runKey);
        Optional<ClaimPause> wanted = pause(probe, now, spec, before);
        if (Objects.equals(before.map(ClaimPause::reason), wanted.map(ClaimPause::reason))) {
            return Optional.empty();
        }
        ledger.recordClaimPause(runKey, wanted.orElse(null));
        return Optional.of(new Change(wanted.orElse(null)));
    }

    static Optional<ClaimPause> pause(SourceLoadProbe probe, Instant now, BackfillCampaignSpec spec, Optional<ClaimPause> before) {
        if (spec.getThrottle() == null) {
            return Optional.empty();
        }
        List<PublicationWindowSpec> windows = spec.getThrottle().getWindows();
        if (windows != null && !windows.isEmpty()) {
            List<SwapWindow> open = windows.stream().map(w -> SwapWindow.of(w).orElseThrow()).toList();
            if (open.stream().noneMatch(w -> w.contains(now))) {
                Instant next = open.stream().map(w -> w.opensAt(now).toInstant()).min(Instant::compareTo).orElseThrow();
                return Optional.of(new ClaimPause(ClaimPause.OUTSIDE_LOAD_WINDOW, "outside the load windows ("
                        + open.stream().map(SwapWindow::describe).collect(Collectors.joining(", ")) + "); the next opens at " + next));
            }
        }
        SourceGuardSpec bounds = spec.getThrottle().getSourceGuard();
        if (bounds == null) {
            return Optional.empty();
        }
        boolean guarded = before.map(p -> ClaimPause.SOURCE_GUARD.equals(p.reason())).orElse(false);
        return SourceGuard.pause(bounds, probe.read(), guarded).map(m -> new ClaimPause(ClaimPause.SOURCE_GUARD, m));
    }
}
