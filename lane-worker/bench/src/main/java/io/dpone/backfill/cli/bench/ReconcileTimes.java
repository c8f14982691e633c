package io.dpone.backfill.cli.bench;

/**
 * The reconciliation arm's passes after its load (issue 38): one that finds nothing changed, and one after the
 * source took {@code changedRows} updates, deletes and inserts; each as a share of the load's seconds.
 */
record ReconcileTimes(double nothingSeconds, double changedSeconds, long changedRows) {
    double nothingShare(double loadSeconds) {
        return nothingSeconds / loadSeconds;
    }

    double changedShare(double loadSeconds) {
        return changedSeconds / loadSeconds;
    }
}
