package io.dpone.backfill.core.verify;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.digest.DigestTable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VerificationTest {
    private static final ChunkDigest ONE_ROW = new ChunkDigest(1, 11, 12, 13, 14);

    /** Chunk 0 equal everywhere; chunk 1 loaded and still in the source, but missing from the published table. */
    private static Verification oneChunkDiffers() {
        return Verification.keyRange(new ChunkDigest[]{ChunkDigest.EMPTY, ONE_ROW},
                new ChunkDigest[]{ChunkDigest.EMPTY, ONE_ROW}, new DigestTable(2), id -> 0);
    }

    @Test
    void theFirstDifferingChunkIsTheOneToLocate() {
        assertThat(oneChunkDiffers().firstDiffering()).hasValueSatisfying(v -> assertThat(v.chunkId()).isEqualTo(1));
    }

    @Test
    void theLocatedRowIsNamedInThatChunksReasonOnlyAndTheVerdictStands() {
        Verification v = oneChunkDiffers();
        Verification named = v.withFirstDifference(1, new ContentDifference("(id)=(7)", null, "the row", null));

        assertThat(named.verdicts().get(1).reason()).startsWith(v.verdicts().get(1).reason())
                .endsWith("; first difference: key (id)=(7) is in the source but not stored in the target");
        assertThat(named.verdicts().get(0)).isEqualTo(v.verdicts().get(0));
        assertThat(named.passed()).isFalse();
        assertThat(named.count(ChunkVerdict.Outcome.DIFFERS)).isEqualTo(1);
    }
}
