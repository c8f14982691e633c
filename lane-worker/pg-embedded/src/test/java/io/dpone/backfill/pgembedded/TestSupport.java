package io.dpone.backfill.pgembedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

final class TestSupport {
    private TestSupport() {
    }

    /** A pid that certainly belonged to a process which has exited. */
    static long deadPid() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        return p.pid();
    }

    /** Instance directories in the temp root that this JVM owns (other modules' JVMs may own others). */
    static List<Path> instanceDirsOfThisJvm() throws IOException {
        long self = ProcessHandle.current().pid();
        try (Stream<Path> dirs = Files.list(TempRoot.get())) {
            return dirs.filter(d -> d.getFileName().toString().startsWith(StaleInstanceSweeper.INSTANCE_PREFIX))
                    .filter(d -> OwnerFile.read(d).map(o -> o.pid() == self).orElse(false))
                    .collect(Collectors.toList());
        }
    }
}
