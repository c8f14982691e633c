package io.dpone.backfill.wiring;

import io.dpone.backfill.connect.Connector;
import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.digest.DigestTable;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.lane.ChunkSource;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.verify.ContentDifference;
import io.dpone.backfill.core.verify.ContentReadBack;
import io.dpone.backfill.core.verify.ContentScope;
import io.dpone.backfill.core.verify.DifferenceLocator;
import io.dpone.backfill.core.verify.PublishedTableDigests;
import io.dpone.backfill.core.verify.TablePart;
import io.dpone.backfill.source.ChunkReading;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.targets.TargetAdapter;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * The read-back gate's reads (ADR 0036) over a driver's connections: the target adapter's reader of a loaded table
 * ({@code verify}'s, ADR 0018) for the stored rows, and the source read as the lanes read it to locate a
 * difference. The source is read again only after a difference was found.
 */
final class ShadowReadBack implements ContentReadBack {
    private static final String READ_BACK_SESSION = "read-back-";

    private final TargetAdapter adapter;
    private final SourceTable source;
    private final Connection target;
    private final Connector sessions;
    private final int parallel;
    /** A test's readers; null: the adapter's. */
    private Function<Connection, PublishedTableDigests> readerOf;

    /**
     * @param sessions opens the target sessions that read parts of the shadow at once, at most {@code parallel}
     *                 (a shadow read whole is read on {@code target})
     */
    ShadowReadBack(TargetAdapter adapter, SourceTable source, Connection target, Connector sessions, int parallel) {
        this.adapter = adapter;
        this.source = source;
        this.target = target;
        this.sessions = sessions;
        this.parallel = Math.max(1, parallel);
    }

    /**
     * One table read on {@code target} alone: for locating a difference ({@link #firstDifference}), which reads one
     * chunk on each side and never splits the table over sessions.
     */
    static ShadowReadBack onOneSession(TargetAdapter adapter, SourceTable source, Connection target) {
        return new ShadowReadBack(adapter, source, target, applicationName -> {
            throw new IllegalStateException("a single-session read-back opens no other session");
        }, 1);
    }

    /** The same over other readers of the target's sessions (a test splits small tables). */
    ShadowReadBack(TargetAdapter adapter, SourceTable source, Connection target, Connector sessions, int parallel,
                   Function<Connection, PublishedTableDigests> readers) {
        this(adapter, source, target, sessions, parallel);
        this.readerOf = readers;
    }

    /**
     * The shadow's digests, read in parts on several sessions at once where the target can split it: on a server
     * with cores to spare a part per lane reads as fast as one session reads its part, not the whole table.
     */
    @Override
    public DigestTable stored(ContentScope scope) throws Exception {
        List<TablePart> parts = reader(target, scope).split(scope.schema(), scope.table(), parallel);
        if (parts.size() == 1) {
            return readStored(scope, null, -1);
        }
        List<Connection> opened = new ArrayList<>();
        ExecutorService readers = Executors.newFixedThreadPool(parts.size(), r -> {
            Thread t = new Thread(r, "backfill-read-back");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<DigestTable>> reads = new ArrayList<>();
            for (TablePart part : parts) {
                // Each part on a session of its own: a part still streaming after another failed never holds the
                // driver's target connection, which the engine uses again at once.
                Connection session = sessions.open(READ_BACK_SESSION + part.index());
                opened.add(session);
                PublishedTableDigests partReader = reader(session, scope);
                reads.add(readers.submit(() -> partReader.read(scope.schema(), scope.table(), scope.columns(),
                        scope.keyColumns(), scope.plan(), encoding(scope), part)));
            }
            DigestTable stored = null;
            for (Future<DigestTable> read : reads) {
                DigestTable digests = awaited(read);
                stored = stored == null ? digests : stored.plus(digests);
            }
            return stored;
        } finally {
            // Closing a session ends a part still streaming after another part failed.
            for (Connection session : opened) {
                closeQuietly(session);
            }
            readers.shutdownNow();
        }
    }

    private static DigestTable awaited(Future<DigestTable> read) throws Exception {
        try {
            return read.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static void closeQuietly(Connection session) {
        try {
            session.close();
        } catch (SQLException e) {
            // the part's own failure, if any, is what the caller hears about
        }
    }

    private PublishedTableDigests reader(Connection session, ContentScope scope) {
        return readerOf != null ? readerOf.apply(session)
                : adapter.publishedDigests(session, source, scope.loaded());
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
        return reader(target, scope).read(scope.schema(), scope.table(),
                scope.columns(), scope.keyColumns(), scope.plan(), encoding(scope), observer, slot);
    }

    /** The source's rows of chunk {@code slot} (every chunk when -1), read and digested as the lanes did. */
    private void readSource(ContentScope scope, int slot, ContentDigester.RowObserver observer) throws Exception {
        ChunkSource chunks = source.adapter().chunks(source.connection(), new ChunkReading(scope.plan(), source.schema(),
                source.table(), scope.sourceColumns(), scope.heap(), scope.anchorXmin(), scope.sourceKey())).observing(observer);
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
