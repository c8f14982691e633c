package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.SourceGuardSpec;
import io.dpone.backfill.core.source.SourceLoad;

import java.util.Locale;
import java.util.Optional;

/**
 * Whether the source is too busy for new claims (issue 28): over a bound pauses; once paused, claims resume only
 * when every value is under {@link SourceGuardSpec#RESUME_BELOW} of its bound, so a value near a bound does not
 * pause and resume the lanes at every look.
 */
public final class SourceGuard {
    private SourceGuard() {
    }

    /** Why claims pause now; empty when they may go on. {@code paused}: they were paused at the last look. */
    public static Optional<String> pause(SourceGuardSpec bounds, SourceLoad load, boolean paused) {
        if (bounds == null) {
            return Optional.empty();
        }
        double part = paused ? SourceGuardSpec.RESUME_BELOW : 1.0;
        Integer maxLag = bounds.getMaxReplicaLagSeconds();
        if (maxLag != null && load.replicaLagSeconds() != null
                && (paused ? load.replicaLagSeconds() >= maxLag * part : load.replicaLagSeconds() > maxLag)) {
            return Optional.of(String.format(Locale.ROOT, "a replica of the source lags %.1f s (bound %d s%s)",
                    load.replicaLagSeconds(), maxLag, paused ? ", resuming below " + Math.round(maxLag * part) + " s" : ""));
        }
        Integer maxSessions = bounds.getMaxActiveSessions();
        if (maxSessions != null && (paused ? load.activeSessions() >= maxSessions * part : load.activeSessions() > maxSessions)) {
            return Optional.of("the source has " + load.activeSessions() + " active sessions (bound " + maxSessions
                    + (paused ? ", resuming below " + Math.round(maxSessions * part) : "") + ")");
        }
        return Optional.empty();
    }
}
