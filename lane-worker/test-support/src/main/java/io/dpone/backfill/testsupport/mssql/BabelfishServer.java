package io.dpone.backfill.testsupport.mssql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One Babelfish server per JVM, started with the tree's own {@code start.sh} on two free ports (TDS and
 * PostgreSQL) in a run directory of this JVM, and stopped with {@code stop.sh} by a shutdown hook. A run directory
 * records its JVM's pid, so the next start sweeps servers whose JVM died without running the hook.
 */
final class BabelfishServer {
    static final String USER = "babelfish_user";
    static final String PASSWORD = "12345678";
    private static final String RUN_PREFIX = "dpone-babelfish-run-";
    private static final String OWNER_FILE = "owner.pid";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);
    private static final int PORT_ATTEMPTS = 3;

    private static SqlServerTestEngine shared;

    private BabelfishServer() {
    }

    static synchronized SqlServerTestEngine shared(Path tarball) {
        if (shared == null) {
            shared = start(tarball);
        }
        return shared;
    }

    private static SqlServerTestEngine start(Path tarball) {
        Path scratch = ScratchRoot.get();
        Path home = BabelfishTree.unpack(tarball, scratch);
        sweepDeadRuns(scratch, home);
        Path run = ScratchRoot.newDirectory(scratch, RUN_PREFIX);
        Path data = run.resolve("data");
        try {
            Files.writeString(run.resolve(OWNER_FILE), Long.toString(ProcessHandle.current().pid()),
                    StandardCharsets.UTF_8);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(home, run), "babelfish-stop"));
            for (int attempt = 1; ; attempt++) {
                int tds = freePort();
                int pg = freePort();
                while (pg == tds) {
                    pg = freePort();
                }
                try {
                    Commands.run(List.of(home.resolve("start.sh").toString(), data.toString(), Integer.toString(tds),
                            Integer.toString(pg)), run.resolve("start.log"), START_TIMEOUT);
                    return new SqlServerTestEngine(EngineKind.BABELFISH, "jdbc:sqlserver://127.0.0.1:" + tds
                            + ";encrypt=false;trustServerCertificate=true", USER, PASSWORD,
                            "Babelfish from " + tarball.getFileName() + ", TDS 127.0.0.1:" + tds + ", data " + data);
                } catch (IOException e) {
                    // A port taken between our probe and the server's bind is the one failure worth a retry.
                    if (attempt >= PORT_ATTEMPTS || !e.getMessage().contains("already in use")) {
                        throw e;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Babelfish did not start from " + home + ": " + e.getMessage(), e);
        }
    }

    private static void stop(Path home, Path run) {
        try {
            if (Files.isDirectory(run.resolve("data"))) {
                Commands.run(List.of(home.resolve("stop.sh").toString(), run.resolve("data").toString()),
                        run.resolve("stop.log"), STOP_TIMEOUT);
            }
            ScratchRoot.deleteRecursively(run);
        } catch (IOException | RuntimeException e) {
            System.err.println("could not stop Babelfish in " + run + ": " + e.getMessage());
        }
    }

    /** Run directories whose JVM is gone: their server (if any) is stopped and the directory removed. */
    private static void sweepDeadRuns(Path scratch, Path home) {
        try (DirectoryStream<Path> runs = Files.newDirectoryStream(scratch, RUN_PREFIX + "*")) {
            for (Path run : runs) {
                if (!ownerAlive(run)) {
                    stop(home, run);
                }
            }
        } catch (IOException e) {
            // Leftovers cost disk, not correctness.
        }
    }

    private static boolean ownerAlive(Path run) {
        try {
            long pid = Long.parseLong(Files.readString(run.resolve(OWNER_FILE), StandardCharsets.UTF_8).trim());
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } catch (IOException | NumberFormatException e) {
            // No owner file yet: a JVM may be creating it right now; leave the directory alone.
            return true;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }
}
