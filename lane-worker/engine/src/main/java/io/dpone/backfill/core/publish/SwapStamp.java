package io.dpone.backfill.core.publish;

/** The roles a campaign stamps on the tables it owns, so a swap or a rollback only ever moves its own tables. */
public enum SwapStamp {
    SHADOW(""),
    PUBLISHED("published "),
    BACKUP("backup ");

    private final String role;

    SwapStamp(String role) {
        this.role = role;
    }

    /** The stamp's text for {@code runKey}; a target may put a marker of its own before it. */
    public String text(String runKey) {
        return role + "run_key=" + runKey;
    }
}
