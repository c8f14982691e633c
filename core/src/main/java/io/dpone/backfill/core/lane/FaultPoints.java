package io.dpone.backfill.core.lane;

/**
 * Named points in the chunk protocol where crash tests stop a real process (SIGKILL, SIGSTOP). Production runs use
 * {@link #NONE}; the CLI installs an environment-driven implementation only when BACKFILL_FAULT is set.
 */
public interface FaultPoints {
    String AFTER_CLAIM = "after-claim";
    String MID_COPY = "mid-copy";
    String BEFORE_COMMIT = "before-commit";
    String AFTER_COMMIT = "after-commit";
    String BEFORE_PUBLISH = "before-publish";

    FaultPoints NONE = (point, chunkId) -> {
    };

    void reached(String point, int chunkId);
}
