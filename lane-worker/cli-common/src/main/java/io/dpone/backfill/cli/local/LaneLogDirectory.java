package io.dpone.backfill.cli.local;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.EnumSet;
import java.util.Set;

/**
 * Where a local run's lane logs go: a directory only the running user can write, so no other user of the host can
 * plant a file or a link there and have a lane's output (which may be root's) written through it. By default a new
 * directory, {@code <tmp>/backfill-<runKey>-<random>}, created with mode 0700 by the same call that names it; a
 * predictable name another user could have made first is never used. A directory the user names ({@code --log-dir})
 * is used only if it is a real directory (not a link), owned by the running user and writable by no one else. Log
 * files are created mode 0600 without following links; one left by an earlier run is appended to only if it is a
 * regular file of the running user's.
 */
public final class LaneLogDirectory {
    public static final String OPTION = "--log-dir";
    private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OTHERS_WRITE = EnumSet.of(PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.OTHERS_WRITE);

    private final Path path;

    private LaneLogDirectory(Path path) {
        this.path = path;
    }

    /** A new directory of the running user's, mode 0700, under {@code java.io.tmpdir}. */
    public static LaneLogDirectory fresh(String runKey) throws IOException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        return new LaneLogDirectory(posix(tmp)
                ? Files.createTempDirectory(tmp, "backfill-" + runKey + "-", PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY))
                : Files.createTempDirectory(tmp, "backfill-" + runKey + "-"));
    }

    /**
     * The directory a user named: created (mode 0700) when it does not exist, else checked. Refused, naming
     * {@value #OPTION}, when it is a link, not a directory, another user's, or writable by its group or others.
     */
    public static LaneLogDirectory chosen(Path dir) throws IOException {
        Path absolute = dir.toAbsolutePath().normalize();
        if (!Files.exists(absolute, LinkOption.NOFOLLOW_LINKS)) {
            if (absolute.getParent() != null) {
                Files.createDirectories(absolute.getParent());
            }
            try {
                // mkdir never follows a link at its last component: a link planted meanwhile makes it fail.
                return new LaneLogDirectory(posix(absolute.getParent())
                        ? Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY))
                        : Files.createDirectory(absolute));
            } catch (FileAlreadyExistsException raced) {
                // someone made it between the look and the mkdir: judge what is there now
            }
        }
        if (!posix(absolute)) {
            return new LaneLogDirectory(absolute);
        }
        PosixFileAttributes attributes = Files.readAttributes(absolute, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (attributes.isSymbolicLink()) {
            throw refused(absolute, "is a symbolic link; name the directory itself");
        }
        if (!attributes.isDirectory()) {
            throw refused(absolute, "is not a directory");
        }
        if (!attributes.owner().equals(runningUser())) {
            throw refused(absolute, "belongs to " + attributes.owner().getName() + ", not to the user running backfill");
        }
        if (attributes.permissions().stream().anyMatch(OTHERS_WRITE::contains)) {
            throw refused(absolute, "is writable by its group or others (" + PosixFilePermissions.toString(attributes.permissions())
                    + "); chmod go-w it, or name another");
        }
        return new LaneLogDirectory(absolute);
    }

    public Path path() {
        return path;
    }

    /**
     * The log file {@code name} in this directory, ready to be appended to: created mode 0600 without following a
     * link, or, left by an earlier run, checked to be a regular file of the running user's.
     */
    public Path log(String name) throws IOException {
        Path file = path.resolve(name);
        Set<StandardOpenOption> create = EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try (SeekableByteChannel ignored = posix(path)
                ? Files.newByteChannel(file, create, PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE))
                : Files.newByteChannel(file, create, new FileAttribute<?>[0])) {
            return file;
        } catch (FileAlreadyExistsException earlierRun) {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                    || (posix(path) && !Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).equals(runningUser()))) {
                throw new IOException(file + " exists and is not a regular file of the user running backfill: lane output is not"
                        + " written through it");
            }
            return file;
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }

    private static IllegalArgumentException refused(Path dir, String why) {
        return new IllegalArgumentException(OPTION + " " + dir + " " + why + ": lane logs go only to a directory no other"
                + " user can write");
    }

    /**
     * The owner a file this process creates gets: the running user, whatever its name resolves to (a container's
     * user may have no name at all).
     */
    private static UserPrincipal runningUser() throws IOException {
        Path probe = Files.createTempFile("backfill-owner-", ".probe");
        try {
            return Files.getOwner(probe, LinkOption.NOFOLLOW_LINKS);
        } finally {
            Files.deleteIfExists(probe);
        }
    }

    private static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
