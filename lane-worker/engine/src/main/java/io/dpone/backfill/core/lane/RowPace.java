package io.dpone.backfill.core.lane;

/**
 * Paces the rows of a chunk as the source streams them (issue 28): the protocol reports every row, the pace makes
 * the lane wait when it is ahead of its share of the campaign's ceiling. Rows are never buffered to be paced: a
 * waiting lane simply does not read its next row yet.
 */
public interface RowPace {
    RowPace NONE = new RowPace() {
        @Override
        public boolean countsBytes() {
            return false;
        }

        @Override
        public boolean passed(long bytes) {
            return false;
        }
    };

    /** Before a chunk's first row: a pace may read a changed ceiling here. */
    default void chunkStarting() {
    }

    /** Whether {@link #passed} needs each row's size (only a byte ceiling does; sizing a decoded row costs a walk). */
    boolean countsBytes();

    /**
     * One more row of {@code bytes} (0 when {@link #countsBytes()} is false) went by; waits when the lane is ahead,
     * and says whether it did (a slow, paced chunk still makes progress: the stall deadline must hear of it).
     */
    boolean passed(long bytes) throws InterruptedException;
}
