package io.dpone.backfill.core.ledger;

/**
 * The ledger already holds this backfill id with another plan or config digest: the spec changed after planning.
 * Permanent: the user must start a new campaign with a new backfillId.
 */
public class LedgerConflictException extends RuntimeException {
    public LedgerConflictException(String message) {
        super(message);
    }
}
