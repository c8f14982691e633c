package io.dpone.backfill.pgembedded;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs PostgreSQL's command-line tools. PostgreSQL refuses to run as root, so when this JVM's effective uid
 * is 0 every command is wrapped in {@code setpriv} to become {@code nobody}, and the files the server writes
 * are handed over to that user. Output always goes to a file so a chatty child can never block on a full pipe.
 */
final class PgProcessRunner {
    static final String SERVICE_USER = "nobody";

    private static final PgProcessRunner INSTANCE = new PgProcessRunner(detectRoot());

    private final boolean root;
    private volatile String serviceGroup;

    PgProcessRunner(boolean root) {
        this.root = root;
    }

    static PgProcessRunner get() {
        return INSTANCE;
    }

    /** True when the JVM runs with effective uid 0, whatever user.name says. */
    boolean runsAsRoot() {
        return root;
    }

    /** Outcome of one command; {@code output} holds its stdout and stderr. */
    record Result(List<String> command, int exitCode, Path output) {
        boolean ok() {
            return exitCode == 0;
        }

        String describe() {
            return "`" + String.join(" ", command) + "` exited with " + exitCode + "; its output:\n"
                    + FileHelpers.tail(output, 40);
        }
    }

    Result run(List<String> command, Path workDir, Path output, Duration timeout) throws IOException {
        List<String> full = new ArrayList<>();
        if (root) {
            full.addAll(List.of("setpriv", "--reuid=" + SERVICE_USER, "--regid=" + serviceGroup(), "--clear-groups"));
        }
        full.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(full)
                // nobody must be able to stat its cwd (initdb resolves it), so never inherit e.g. /root.
                .directory(workDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        scrubEnvironment(pb.environment());
        Process process = pb.start();
        boolean finished;
        try {
            finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killTree(process);
            throw new IOException("interrupted while running " + full, e);
        }
        if (!finished) {
            killTree(process);
            throw new IOException("`" + String.join(" ", full) + "` did not finish within " + timeout
                    + "; its output:\n" + FileHelpers.tail(output, 40));
        }
        return new Result(full, process.exitValue(), output);
    }

    /** When root, makes {@code path} owned by nobody so the server (running as nobody) may write it. */
    void handOver(Path path) throws IOException {
        if (!root) {
            return;
        }
        UserPrincipalLookupService lookup = path.getFileSystem().getUserPrincipalLookupService();
        UserPrincipal user = lookup.lookupPrincipalByName(SERVICE_USER);
        GroupPrincipal group = lookup.lookupPrincipalByGroupName(serviceGroup());
        PosixFileAttributeView view = Files.getFileAttributeView(path, PosixFileAttributeView.class);
        view.setOwner(user);
        view.setGroup(group);
    }

    /** Debian names nobody's group "nogroup", Red Hat names it "nobody". */
    private String serviceGroup() throws IOException {
        String group = serviceGroup;
        if (group == null) {
            UserPrincipalLookupService lookup = Path.of("/").getFileSystem().getUserPrincipalLookupService();
            try {
                lookup.lookupPrincipalByGroupName("nogroup");
                group = "nogroup";
            } catch (UserPrincipalNotFoundException e) {
                group = "nobody";
            }
            serviceGroup = group;
        }
        return group;
    }

    /** Stray PG* variables (PGPORT, PGDATA, ...) from the developer's shell must not steer our tools. */
    private static void scrubEnvironment(Map<String, String> env) {
        env.keySet().removeIf(k -> k.startsWith("PG"));
        // A fixed zone keeps initdb from scanning the zoneinfo tree and makes server-side times deterministic.
        env.put("TZ", "UTC");
        env.put("LC_ALL", "C");
    }

    private static void killTree(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /** Effective uid from /proc (the second Uid field); falls back to {@code id -u}. */
    static boolean detectRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("Uid:")) {
                    String[] fields = line.substring(4).trim().split("\\s+");
                    return "0".equals(fields[1]);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux-like /proc: ask id(1)
        }
        try {
            Process p = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor(10, TimeUnit.SECONDS);
            return "0".equals(out);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
