package io.dpone.backfill.pgembedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;

/** Where binaries and data directories live: {@code java.io.tmpdir}, unless nobody could not reach it. */
final class TempRoot {
    private static final Path FALLBACK = Path.of("/tmp");

    private TempRoot() {
    }

    static Path get() {
        Path configured = Path.of(System.getProperty("java.io.tmpdir"));
        try {
            configured = configured.toRealPath();
        } catch (IOException e) {
            configured = configured.toAbsolutePath().normalize();
        }
        // As root the server runs as nobody, which must traverse every parent (a tmpdir under /root fails).
        if (PgProcessRunner.get().runsAsRoot() && !traversableByOthers(configured)) {
            return FALLBACK;
        }
        return configured;
    }

    static boolean traversableByOthers(Path dir) {
        try {
            for (Path p = dir; p != null; p = p.getParent()) {
                if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    return false;
                }
            }
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
