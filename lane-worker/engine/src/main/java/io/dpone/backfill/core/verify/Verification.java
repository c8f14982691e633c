package io.dpone.backfill.core.verify;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.digest.DigestTable;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToLongFunction;

/**
 * The comparison {@code verify} makes (ADR 0018), chunk by chunk, from three digests: the one the lane recorded in
 * the receipt, the source's rows read again, and the published table's rows that fall in the chunk. Pure: the
 * reading is done by the caller; the count of source rows newer than the anchor is asked only for chunks whose
 * source differs from the receipt.
 */
public final class Verification {
    private final List<ChunkVerdict> verdicts;
    private final boolean physical;
    private final ChunkDigest receiptsTotal;
    private final ChunkDigest publishedTotal;

    private Verification(List<ChunkVerdict> verdicts, boolean physical, ChunkDigest receiptsTotal, ChunkDigest publishedTotal) {
        this.verdicts = List.copyOf(verdicts);
        this.physical = physical;
        this.receiptsTotal = receiptsTotal;
        this.publishedTotal = publishedTotal;
    }

    /**
     * Key-range chunks: every published row was mapped to its chunk by its key.
     *
     * @param receipts one per chunk, null where the receipt recorded no digest
     * @param changedSinceAnchor source rows of a chunk written at or after the anchor
     */
    public static Verification keyRange(ChunkDigest[] receipts, ChunkDigest[] sourceNow, DigestTable published,
                                        IntToLongFunction changedSinceAnchor) {
        List<ChunkVerdict> verdicts = new ArrayList<>(receipts.length);
        for (int id = 0; id < receipts.length; id++) {
            ChunkDigest receipt = receipts[id];
            ChunkDigest source = sourceNow[id];
            ChunkDigest target = published.digest(id);
            if (receipt == null) {
                verdicts.add(new ChunkVerdict(id, ChunkVerdict.Outcome.NO_DIGEST, null, source, target, 0,
                        "no digest recorded: the receipt was written before receipts carried content digests"));
            } else if (target.equals(receipt) && source.equals(receipt)) {
                verdicts.add(new ChunkVerdict(id, ChunkVerdict.Outcome.EQUAL, receipt, source, target, 0, ""));
            } else if (target.equals(receipt)) {
                long changed = changedSinceAnchor.applyAsLong(id);
                verdicts.add(changed > 0
                        ? new ChunkVerdict(id, ChunkVerdict.Outcome.CHANGED_SINCE_ANCHOR, receipt, source, target, changed,
                        changed + " source row(s) changed since the anchor; the published table holds the chunk as loaded"
                                + " (the incremental pass from the anchor carries the change)")
                        : new ChunkVerdict(id, ChunkVerdict.Outcome.DIFFERS, receipt, source, target, 0,
                        "the source differs from what was loaded (" + rows(receipt, source) + ") but no row is newer"
                                + " than the anchor: rows deleted since, or changed without a new row version"));
            } else if (target.equals(source)) {
                long changed = changedSinceAnchor.applyAsLong(id);
                verdicts.add(changed > 0
                        ? new ChunkVerdict(id, ChunkVerdict.Outcome.CHANGED_SINCE_ANCHOR, receipt, source, target, changed,
                        changed + " source row(s) changed since the anchor, and the published table has the same"
                                + " change (an incremental pass applied it)")
                        : new ChunkVerdict(id, ChunkVerdict.Outcome.DIFFERS, receipt, source, target, 0,
                        "source and published table agree but both differ from what the lane loaded, with no source row"
                                + " newer than the anchor"));
            } else {
                long changed = source.equals(receipt) ? 0 : changedSinceAnchor.applyAsLong(id);
                verdicts.add(new ChunkVerdict(id, ChunkVerdict.Outcome.DIFFERS, receipt, source, target, changed,
                        "the published table differs from what the lane loaded (" + what(receipt, target) + ")"
                                + (changed > 0 ? "; besides, " + changed + " source row(s) changed since the anchor" : "")));
            }
        }
        return new Verification(verdicts, false, sum(receipts), published.total());
    }

    /**
     * Physical chunks: the published table cannot place a row in a block range, so each chunk compares the source
     * now with its receipt, and the whole published table is compared with the sum of the receipts.
     */
    public static Verification physical(ChunkDigest[] receipts, ChunkDigest[] sourceNow, ChunkDigest publishedTotal,
                                        IntToLongFunction changedSinceAnchor) {
        List<ChunkVerdict> verdicts = new ArrayList<>(receipts.length);
        for (int id = 0; id < receipts.length; id++) {
            ChunkDigest receipt = receipts[id];
            ChunkDigest source = sourceNow[id];
            if (receipt == null) {
                verdicts.add(new ChunkVerdict(id, ChunkVerdict.Outcome.NO_DIGEST, null, source, null, 0,
                        "no digest recorded: the receipt was written before receipts carried content digests"));
            } else if (source.equals(receipt)) {
                verdicts.add(new ChunkVerdict(id, ChunkVerdict.Outcome.EQUAL, receipt, source, null, 0, ""));
            } else {
                long changed = changedSinceAnchor.applyAsLong(id);
                verdicts.add(changed > 0
                        ? new ChunkVerdict(id, ChunkVerdict.Outcome.CHANGED_SINCE_ANCHOR, receipt, source, null, changed,
                        changed + " row version(s) in the chunk's blocks are newer than the anchor; the source"
                                + " differs from what was loaded (" + rows(receipt, source) + ")")
                        : new ChunkVerdict(id, ChunkVerdict.Outcome.DIFFERS, receipt, source, null, 0,
                        "the source's blocks no longer hold what was loaded (" + rows(receipt, source) + ") and no row"
                                + " version in them is newer than the anchor (a row moved by an update, or deleted)"));
            }
        }
        return new Verification(verdicts, true, sum(receipts), publishedTotal);
    }

    private static ChunkDigest sum(ChunkDigest[] receipts) {
        ChunkDigest total = ChunkDigest.EMPTY;
        for (ChunkDigest d : receipts) {
            if (d != null) {
                total = total.plus(d);
            }
        }
        return total;
    }

    private static String rows(ChunkDigest loaded, ChunkDigest now) {
        return loaded.rows() == now.rows() ? loaded.rows() + " rows, content differs"
                : loaded.rows() + " rows loaded, " + now.rows() + " rows now";
    }

    private static String what(ChunkDigest loaded, ChunkDigest published) {
        if (loaded.rows() != published.rows()) {
            return loaded.rows() + " rows loaded, " + published.rows() + " rows published";
        }
        return loaded.sameKeys(published) ? loaded.rows() + " rows, same keys, different values"
                : loaded.rows() + " rows, different keys";
    }

    /** The first chunk that differs, if any: the one whose first differing row is worth locating. */
    public java.util.Optional<ChunkVerdict> firstDiffering() {
        return verdicts.stream().filter(v -> v.outcome() == ChunkVerdict.Outcome.DIFFERS).findFirst();
    }

    /**
     * The same verdicts, with chunk {@code chunkId}'s reason naming its first differing row (key, column, both
     * values), as the read-back gate names it before publication.
     */
    public Verification withFirstDifference(int chunkId, ContentDifference difference) {
        List<ChunkVerdict> named = new ArrayList<>(verdicts.size());
        for (ChunkVerdict v : verdicts) {
            named.add(v.chunkId() != chunkId ? v : new ChunkVerdict(v.chunkId(), v.outcome(), v.receipt(), v.sourceNow(),
                    v.published(), v.changedSinceAnchor(), v.reason() + "; first difference: " + difference.describe()));
        }
        return new Verification(named, physical, receiptsTotal, publishedTotal);
    }

    public List<ChunkVerdict> verdicts() {
        return verdicts;
    }

    public boolean physical() {
        return physical;
    }

    public long count(ChunkVerdict.Outcome outcome) {
        return verdicts.stream().filter(v -> v.outcome() == outcome).count();
    }

    /**
     * For physical plans: whether the published table as a whole equals the sum of the receipts (true for
     * key-range plans, whose comparison is per chunk). Meaningful only when every receipt recorded a digest.
     */
    public boolean tableTotalsAgree() {
        return !physical || count(ChunkVerdict.Outcome.NO_DIGEST) > 0 || receiptsTotal.equals(publishedTotal);
    }

    public ChunkDigest receiptsTotal() {
        return receiptsTotal;
    }

    public ChunkDigest publishedTotal() {
        return publishedTotal;
    }

    /** No chunk differs and (physical) the table's totals agree; changes since the anchor and missing digests pass. */
    public boolean passed() {
        return count(ChunkVerdict.Outcome.DIFFERS) == 0 && tableTotalsAgree();
    }
}
