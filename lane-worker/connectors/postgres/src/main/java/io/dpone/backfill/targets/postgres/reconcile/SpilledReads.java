package io.dpone.backfill.targets.postgres.reconcile;

import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.reconcile.PassTarget.SourceRead;
import org.postgresql.PGConnection;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The target session's own read and the source's reads at once: a session serves one statement at a time, so what the
 * source sends meanwhile waits in files (on disk, never in memory: a pass's changed rows can be many), copied in once
 * the session is free.
 */
final class SpilledReads {
    /** Work on the target session. */
    @FunctionalInterface
    interface SqlWork {
        void run() throws SQLException;
    }

    private SpilledReads() {
    }

    /**
     * Runs {@code ownRead} on the session in a thread of its own, then opens each of {@code reads} in turn (the other
     * server's, which may compute a while before its first row: opened after the own read began, so both servers work)
     * and writes its rows to a file of its own as they come; returns the files once all are done, for
     * {@link #copyIn}. On failure the files are deleted and the session is idle again before this returns.
     */
    static List<Path> whileReading(List<SourceRead> reads, SqlWork ownRead) throws Exception {
        FutureTask<Void> own = new FutureTask<>(() -> {
            ownRead.run();
            return null;
        });
        Thread reader = new Thread(own, "reconcile-target-read");
        reader.setDaemon(true);
        reader.start();
        List<Path> files = new ArrayList<>();
        try {
            for (SourceRead read : reads) {
                Path file = Files.createTempFile("backfill-reconcile-", ".copy");
                file.toFile().deleteOnExit();
                files.add(file);
                try (ChunkRows rows = read.open(); OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
                    while (rows.next()) {
                        out.write(rows.copyBytes());
                    }
                }
            }
        } catch (Exception e) {
            // The session is still busy with its own read: wait for it before the caller uses the session again.
            waitFor(own);
            deleteAll(files);
            throw e;
        }
        try {
            own.get();
        } catch (ExecutionException e) {
            deleteAll(files);
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
        return files;
    }

    /** Copies a file of text rows in through {@code sql} (a {@code COPY ... FROM STDIN}), then deletes it. */
    static void copyIn(Connection target, String sql, Path file) throws Exception {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            target.unwrap(PGConnection.class).getCopyAPI().copyIn(sql, in);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void deleteAll(List<Path> files) throws IOException {
        for (Path f : files) {
            Files.deleteIfExists(f);
        }
    }

    private static void waitFor(FutureTask<Void> task) {
        try {
            task.get();
        } catch (Exception ignored) {
            // the first failure is the one reported
        }
    }
}
