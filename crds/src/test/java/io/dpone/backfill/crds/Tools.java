package io.dpone.backfill.crds;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** Real command-line tools the chart's tests run (promtool, lua5.1, kubectl); they skip when one is absent. */
final class Tools {
    private Tools() {
    }

    static boolean onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, command);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return true;
            }
        }
        return false;
    }
}
