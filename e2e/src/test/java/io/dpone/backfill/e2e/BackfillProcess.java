package io.dpone.backfill.e2e;

import io.dpone.backfill.testsupport.RepositoryRoot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the packaged {@code backfill} jar as a separate process, the way a user or a pod runs it. */
final class BackfillProcess {
    static final Path REPO = RepositoryRoot.path();
    static final Path JAR = REPO.resolve("lane-worker/cli/target/backfill.jar");

    record Result(int exitCode, String stdout, String stderr) {
    }

    private BackfillProcess() {
    }

    static Result run(Path workDir, String... args) throws IOException, InterruptedException {
        return run(workDir, Map.of(), Duration.ofMinutes(2), args);
    }

    /** Runs the packaged CLI with {@code env} added to this JVM's environment, waiting at most {@code timeout}. */
    static Result run(Path workDir, Map<String, String> env, Duration timeout, String... args) throws IOException, InterruptedException {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException("missing " + JAR + ": the reactor packages lane-worker before e2e");
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar", JAR.toString()));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("backfill-out", ".txt");
        Path err = Files.createTempFile("backfill-err", ".txt");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("backfill " + String.join(" ", args) + " did not finish");
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
