package io.dpone.backfill.core.target;

/**
 * A rollback would move rows written into the published table after publication away from the live name, and
 * the caller did not accept that. Thrown before anything changed.
 */
public class PublishedTableWrittenException extends RuntimeException {
    private final long changedRows;

    public PublishedTableWrittenException(String message, long changedRows) {
        super(message);
        this.changedRows = changedRows;
    }

    public long changedRows() {
        return changedRows;
    }
}
