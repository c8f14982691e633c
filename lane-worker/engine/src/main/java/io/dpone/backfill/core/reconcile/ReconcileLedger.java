package io.dpone.backfill.core.reconcile;

import io.dpone.backfill.core.ledger.CampaignLease;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where passes, their ranges' receipts and the queue live: in the campaign's state schema of the target, beside the
 * ledger (issue 38). Range receipts and queue rows are written by the {@link PassTarget} inside each range's own
 * transaction; this port opens and closes passes and reads and decides.
 */
public interface ReconcileLedger {
    /** Creates the pass, receipt and queue tables when missing; idempotent. */
    void ensureSchema();

    /** Whether the tables exist: read-only commands ({@code status}) show passes only where one ever ran. */
    boolean present();

    /**
     * The campaign's unfinished pass (a crash left it), or a new one from {@code since} to {@code anchor}, fenced by
     * the lease.
     */
    PassRecord openPass(CampaignLease lease, String since, String anchor);

    /** The ranges of {@code pass} already reconciled (their receipts committed). */
    Set<Integer> reconciledRanges(String runKey, int pass);

    /** Closes {@code pass} with its ranges' totals, fenced by the lease; the handoff now carries its anchor. */
    PassRecord finishPass(CampaignLease lease, int pass);

    /** Every pass, oldest first. */
    List<PassRecord> passes(String runKey);

    /** Records a decision for queued keys ({@code keys} empty: every undecided key); returns how many it decided. */
    int decide(String runKey, List<String> keys, KeyDecision decision);

    /** Keys with {@code decision} that a pass has still to act on (accepted keys until written). */
    List<String> keysDecided(String runKey, KeyDecision decision);

    /** Undecided queued keys. */
    long undecided(String runKey);

    /** Up to {@code limit} queued keys, undecided first. */
    List<QueuedKey> queue(String runKey, int limit);

    /** The anchor an incremental sync starts from: the last finished pass's, if any. */
    default Optional<PassRecord> lastFinished(String runKey) {
        return PassRecord.lastFinished(passes(runKey));
    }
}
