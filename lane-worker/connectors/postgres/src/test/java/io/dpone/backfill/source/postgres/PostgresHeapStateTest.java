package io.dpone.backfill.source.postgres;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Which heaps physical chunks refuse, and why (ADR 0015); the reading itself is proven in PostgresHeapChunksIT. */
class PostgresHeapStateTest {
    private static final BigInteger EPOCH_ONE = BigInteger.ONE.shiftLeft(32);

    private static PostgresHeapState heap(int version, char relkind, boolean children, BigInteger nextXid) {
        return new PostgresHeapState(version, relkind, children, 100, "16384/16384", nextXid);
    }

    @Test
    void aPlainTableOnPostgres14InXidEpochZeroIsAccepted() {
        assertThat(heap(140000, 'r', false, EPOCH_ONE.subtract(BigInteger.ONE)).refusals()).isEmpty();
    }

    @Test
    void aClusterWhoseXidsWrappedIsRefusedBecauseFrozenRawXminsCouldCollideWithTheWindow() {
        assertThat(heap(170000, 'r', false, EPOCH_ONE).refusals()).singleElement().asString()
                .contains("epoch 1").contains("frozen tuple keeps its raw 32-bit xmin").contains("silently");
    }

    @Test
    void olderServersPartitionedTablesAndParentsAreRefusedEachNamingWhy() {
        assertThat(heap(130012, 'r', false, BigInteger.TEN).refusals()).singleElement().asString().contains("14 or later");
        assertThat(heap(170000, 'p', false, BigInteger.TEN).refusals()).singleElement().asString().contains("relkind 'p'");
        assertThat(heap(170000, 'r', true, BigInteger.TEN).refusals()).singleElement().asString().contains("inheritance");
        assertThat(heap(130000, 'v', false, EPOCH_ONE).refusals()).hasSize(3);
    }
}
