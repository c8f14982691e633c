package io.dpone.backfill.core.fault;

import io.dpone.backfill.core.fault.FaultPoint;
/**
 * Where crash tests stop a real process ({@link FaultPoint}). Production runs use {@link #NONE}; drivers install an
 * environment-driven implementation only when BACKFILL_FAULT is set. {@link #armed} lets a hot path skip work that
 * only a fault point needs.
 */
public interface FaultPoints {
    FaultPoints NONE = new FaultPoints() {
        @Override
        public void reached(FaultPoint point, int chunkId) {
        }

        @Override
        public boolean armed(FaultPoint point) {
            return false;
        }
    };

    void reached(FaultPoint point, int chunkId);

    /** Whether {@code point} may still fire for some chunk. */
    boolean armed(FaultPoint point);
}
