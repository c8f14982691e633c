package io.dpone.backfill.targets;

/** The ledger script version a build writes, checked after the script is applied, the same way for every database. */
public final class LedgerVersion {
    private LedgerVersion() {
    }

    /** Refuses a ledger whose recorded version is not {@code expected}: a newer or older build's ledger is left alone. */
    public static void require(String stateSchema, Integer found, int expected) {
        if (found == null || found != expected) {
            throw new IllegalStateException("ledger schema " + stateSchema + " has version " + found
                    + " but this build uses ledger version " + expected);
        }
    }
}
