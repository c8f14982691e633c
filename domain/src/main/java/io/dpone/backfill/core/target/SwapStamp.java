package io.dpone.backfill.core.target;

/** The roles a campaign stamps on the tables it owns, so a swap or a rollback only ever moves its own tables. */
public enum SwapStamp {
    SHADOW,
    PUBLISHED,
    BACKUP
}
