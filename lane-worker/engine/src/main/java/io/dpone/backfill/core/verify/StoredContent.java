package io.dpone.backfill.core.verify;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.digest.DigestTable;

import java.util.ArrayList;
import java.util.List;

/**
 * The read-back gate's comparison (ADR 0036): what the target stored against what the lanes sent, as the receipts'
 * digests recorded it. Per chunk for a key-range plan (each stored row falls in its chunk by its key); the whole
 * table for a physical plan (a stored row cannot be placed in a block range of the source).
 */
public final class StoredContent {
    /** One chunk (or, for a physical plan, the table, chunk -1) whose stored rows are not what was sent. */
    public record Mismatch(int chunkId, ChunkDigest sent, ChunkDigest stored) {
        public String describe() {
            String where = chunkId < 0 ? "the table" : "chunk " + chunkId;
            if (sent.rows() != stored.rows()) {
                return where + ": " + sent.rows() + " rows sent, " + stored.rows() + " stored";
            }
            return where + ": " + sent.rows() + " rows, " + (sent.sameKeys(stored) ? "same keys, different values"
                    : "different keys");
        }
    }

    private final List<Mismatch> mismatches;

    private StoredContent(List<Mismatch> mismatches) {
        this.mismatches = List.copyOf(mismatches);
    }

    /** @param sent one digest per chunk of the plan, as the receipts recorded them; none null */
    public static StoredContent compare(boolean keyed, ChunkDigest[] sent, DigestTable stored) {
        List<Mismatch> out = new ArrayList<>();
        if (keyed) {
            for (int id = 0; id < sent.length; id++) {
                if (!sent[id].equals(stored.digest(id))) {
                    out.add(new Mismatch(id, sent[id], stored.digest(id)));
                }
            }
        } else {
            ChunkDigest total = ChunkDigest.EMPTY;
            for (ChunkDigest d : sent) {
                total = total.plus(d);
            }
            if (!total.equals(stored.total())) {
                out.add(new Mismatch(-1, total, stored.total()));
            }
        }
        return new StoredContent(out);
    }

    public boolean matches() {
        return mismatches.isEmpty();
    }

    public List<Mismatch> mismatches() {
        return mismatches;
    }

    /** The first few mismatches and how many more, one line. */
    public String describe(int most) {
        List<String> shown = mismatches.stream().limit(most).map(Mismatch::describe).toList();
        return String.join("; ", shown) + (mismatches.size() > most ? "; and " + (mismatches.size() - most)
                + " more chunk(s)" : "");
    }
}
