package io.dpone.backfill.core.verify;

import io.dpone.backfill.core.digest.DigestTable;

import java.util.Optional;

/**
 * Reads back what the target stored in a loaded table (the shadow, before publication): its rows digested with the
 * canonical encoding the lanes digested what they sent with (ADR 0018), and, once a difference is known, where it
 * is. The composition root implements it over the target adapter's reader and the PostgreSQL source.
 */
public interface ContentReadBack {

    /** Digests of the stored rows: a slot per chunk of a key-range plan, one slot for a physical plan. */
    DigestTable stored(ContentScope scope) throws Exception;

    /**
     * The first differing key and column between the source's rows and the stored rows of chunk {@code chunkId}
     * (a key-range plan), or of the whole table (a physical plan, {@code chunkId} ignored). Reads both again, twice;
     * empty when no difference is found any more.
     */
    Optional<ContentDifference> firstDifference(ContentScope scope, int chunkId) throws Exception;
}
