package io.dpone.backfill.testsupport.mssql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Writable directories for the Babelfish tree and its data: under {@code java.io.tmpdir}, unless {@code nobody}
 * could not traverse it. As root, start.sh runs the server as {@code nobody}, which must pass through every parent
 * of the data directory (a tmpdir under /root fails), so directories made here are world-traversable.
 */
final class ScratchRoot {
    private static final Set<PosixFilePermission> TRAVERSABLE = PosixFilePermissions.fromString("rwxr-xr-x");

    private ScratchRoot() {
    }

    static Path get() {
        Path configured = Path.of(System.getProperty("java.io.tmpdir"));
        try {
            configured = configured.toRealPath();
        } catch (IOException e) {
            configured = configured.toAbsolutePath().normalize();
        }
        return traversableByOthers(configured) ? configured : Path.of("/tmp");
    }

    /** A new directory under {@code parent} that {@code nobody} may traverse (createTempDirectory makes it 0700). */
    static Path newDirectory(Path parent, String prefix) {
        try {
            Path dir = Files.createTempDirectory(parent, prefix);
            Files.setPosixFilePermissions(dir, TRAVERSABLE);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory in " + parent, e);
        }
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

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
