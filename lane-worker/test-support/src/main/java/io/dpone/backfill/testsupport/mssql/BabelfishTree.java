package io.dpone.backfill.testsupport.mssql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

/**
 * The Babelfish tree unpacked from its tarball once per machine and tarball content: into a directory named by the
 * tarball's SHA-256, made complete elsewhere and moved into place, so JVMs that unpack at the same time never see
 * half a tree. The tarball itself (where {@code BACKFILL_BABELFISH_DIST} points) is only read.
 */
final class BabelfishTree {
    private static final Duration UNPACK_TIMEOUT = Duration.ofMinutes(3);

    private BabelfishTree() {
    }

    /** The {@code babelfish/} directory holding {@code start.sh}, unpacked on first use. */
    static Path unpack(Path tarball, Path scratch) {
        Path home = scratch.resolve("dpone-babelfish-" + digest(tarball)).resolve("babelfish");
        if (Files.isExecutable(home.resolve("start.sh"))) {
            return home;
        }
        Path staging = ScratchRoot.newDirectory(scratch, "dpone-babelfish-unpack-");
        try {
            Commands.run(List.of("tar", "-xJf", tarball.toAbsolutePath().toString(), "-C", staging.toString()),
                    staging.resolve("tar.log"), UNPACK_TIMEOUT);
            Files.delete(staging.resolve("tar.log"));
            if (!Files.isExecutable(staging.resolve("babelfish").resolve("start.sh"))) {
                throw new IllegalStateException(tarball + " holds no babelfish/start.sh");
            }
            try {
                Files.move(staging, home.getParent(), StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException | AtomicMoveNotSupportedException lost) {
                // Another JVM finished first; its tree is as good as ours.
                ScratchRoot.deleteRecursively(staging);
            }
        } catch (IOException e) {
            ScratchRoot.deleteRecursively(staging);
            throw new UncheckedIOException("unpacking " + tarball + " failed", e);
        }
        return home;
    }

    private static String digest(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(sha.digest()).substring(0, 16);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
