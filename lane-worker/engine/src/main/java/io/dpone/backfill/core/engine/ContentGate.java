package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.digest.DigestTable;
import io.dpone.backfill.core.verify.ContentDifference;
import io.dpone.backfill.core.verify.ContentReadBack;
import io.dpone.backfill.core.verify.ContentScope;
import io.dpone.backfill.core.verify.StoredContent;

/**
 * One run of the read-back gate before publication (ADR 0036) and what it found: the check used, its seconds, the
 * chunks whose stored content is not what was sent and, when one is, the first differing key and column.
 */
final class ContentGate {
    private static final int CHUNKS_NAMED = 5;

    private final String check;
    private final double seconds;
    private final String note;
    private final StoredContent content;
    private final ContentDifference first;

    private ContentGate(String check, double seconds, String note, StoredContent content, ContentDifference first) {
        this.check = check;
        this.seconds = seconds;
        this.note = note;
        this.content = content;
        this.first = first;
    }

    /** No content compared: only counts and keys were checked, for {@code why}. */
    static ContentGate off(String check, String why) {
        return new ContentGate(check, 0, why, null, null);
    }

    /**
     * Reads the stored rows back and compares them with {@code sent} (a digest per chunk); on a difference, reads
     * both sides of the first differing chunk (or table) again to name the key and column.
     */
    static ContentGate run(ContentReadBack readBack, ContentScope scope, ChunkDigest[] sent) {
        long start = System.nanoTime();
        try {
            DigestTable stored = readBack.stored(scope);
            StoredContent content = StoredContent.compare(scope.plan().kind().keyed(), sent, stored);
            double seconds = (System.nanoTime() - start) / 1e9;
            if (content.matches()) {
                return new ContentGate("content", seconds, null, content, null);
            }
            ContentDifference first = readBack.firstDifference(scope, content.mismatches().get(0).chunkId()).orElse(null);
            return new ContentGate("content", seconds, content.describe(CHUNKS_NAMED)
                    + (first == null ? "" : "; first difference: " + first.describe()), content, first);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("reading back " + scope.schema() + "." + scope.table() + " failed: "
                    + e.getMessage(), e);
        }
    }

    boolean passed() {
        return content == null || content.matches();
    }

    PhaseDetail record(PhaseDetail detail) {
        return detail.withContentCheck(check, passed(), seconds, note);
    }

    /** The block's message: what differs, where first, and that nothing was published. */
    String blockReason(String shadow) {
        return "content check failed: what the target stored in " + shadow + " is not what the lanes sent ("
                + content.describe(CHUNKS_NAMED) + ")"
                + (first == null ? "; the first differing row could not be located again (the source changed since?)"
                : "; first difference: " + first.describe())
                + "; a value was converted on the way in: nothing was published, the shadow is kept for diagnosis and"
                + " the live table is untouched";
    }
}
