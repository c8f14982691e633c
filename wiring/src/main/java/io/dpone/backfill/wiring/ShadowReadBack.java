package io.dpone.backfill.wiring;

import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.digest.DigestTable;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.verify.ContentDifference;
import io.dpone.backfill.core.verify.ContentReadBack;
import io.dpone.backfill.core.verify.ContentScope;
import io.dpone.backfill.core.verify.DifferenceLocator;
import io.dpone.backfill.source.postgres.PostgresChunkSource;
import io.dpone.backfill.target.TargetAdapter;

import java.sql.Connection;
import java.util.List;
import java.util.Optional;

/**
 * The read-back gate's reads (ADR 0036) over a driver's connections: the target adapter's reader of a loaded table
 * ({@code verify}'s, ADR 0018) for the stored rows, and the PostgreSQL source read as the lanes read it to locate a
 * difference. The source is read again only after a difference was found.
 */
final class ShadowReadBack implements ContentReadBack {
    private final TargetAdapter adapter;
    private final Connection source;
    private final Connection target;
    private final String sourceSchema;
    private final String sourceTable;

    ShadowReadBack(TargetAdapter adapter, Connection source, Connection target, String sourceSchema, String sourceTable) {
        this.adapter = adapter;
        this.source = source;
        this.target = target;
        this.sourceSchema = sourceSchema;
        this.sourceTable = sourceTable;
    }

    @Override
    public DigestTable stored(ContentScope scope) throws Exception {
        return readStored(scope, null, -1);
    }

    /**
     * For a key-range plan, chunk {@code chunkId} on both sides (the stored rows that fall in its slot); for a
     * physical plan, every chunk of the source against the whole stored table.
     */
    @Override
    public Optional<ContentDifference> firstDifference(ContentScope scope, int chunkId) throws Exception {
        DifferenceLocator locator = new DifferenceLocator(scope.columns(),
                ContentDigester.positions(scope.columns(), scope.keyColumns()));
        int slot = scope.plan().kind().keyed() ? chunkId : -1;
        DifferenceLocator.BucketSums read = locator.sums();
        readSource(scope, slot, read);
        DifferenceLocator.BucketSums stored = locator.sums();
        readStored(scope, stored, slot);
        int bucket = DifferenceLocator.firstDifferingBucket(read, stored);
        if (bucket < 0) {
            return Optional.empty();
        }
        DifferenceLocator.BucketRows readRows = locator.rows(bucket);
        readSource(scope, slot, readRows);
        DifferenceLocator.BucketRows storedRows = locator.rows(bucket);
        readStored(scope, storedRows, slot);
        return locator.compare(readRows, storedRows);
    }

    private DigestTable readStored(ContentScope scope, ContentDigester.RowObserver observer, int slot) throws Exception {
        return adapter.publishedDigests(target, source, sourceSchema, sourceTable).read(scope.schema(), scope.table(),
                scope.columns(), scope.keyColumns(), scope.plan(), encoding(scope), observer, slot);
    }

    /** The source's rows of chunk {@code slot} (every chunk when -1), read and digested as the lanes did. */
    private void readSource(ContentScope scope, int slot, ContentDigester.RowObserver observer) throws Exception {
        PostgresChunkSource chunks = new PostgresChunkSource(source, scope.plan(), sourceSchema, sourceTable,
                scope.columns(), scope.heap(), scope.anchorXmin(), scope.keyColumns()).observing(observer);
        for (ChunkRange range : slot >= 0 ? List.of(scope.plan().chunk(slot)) : scope.plan().chunks()) {
            try (ChunkRows rows = chunks.open(range, encoding(scope))) {
                while (rows.next()) {
                    // the rows digest themselves, and the observer sees them, as they pass
                }
            }
        }
    }

    /** A ledger written before row encodings were recorded: what this target's lanes used then. */
    private RowEncoding encoding(ContentScope scope) {
        return scope.encoding() != null ? scope.encoding() : adapter.unrecordedRowEncoding();
    }
}
