package io.dpone.backfill.core.ledger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChunkErrorTextTest {
    @Test
    void errorsAreCutAt2000CharactersWithoutSplittingASurrogatePairAndWithoutNul() {
        String error = "e".repeat(1999) + "\uD83D\uDE00" + "tail";
        assertThat(ChunkErrorText.bounded(error)).hasSize(1999);
        assertThat(ChunkErrorText.bounded("e".repeat(2500))).hasSize(2000);
        assertThat(ChunkErrorText.bounded("a\u0000b")).isEqualTo("a b");
        assertThat(ChunkErrorText.bounded(null)).isNull();
    }
}
