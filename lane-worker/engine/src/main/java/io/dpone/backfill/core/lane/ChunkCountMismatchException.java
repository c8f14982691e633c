package io.dpone.backfill.core.lane;

/** The sink loaded a different number of rows than the source streamed: the chunk's transaction rolls back. */
public class ChunkCountMismatchException extends IllegalStateException {
    public ChunkCountMismatchException(int chunkId, long extracted, long loaded) {
        super("chunk " + chunkId + ": rows extracted (" + extracted + ") differ from rows loaded (" + loaded + ")");
    }
}
