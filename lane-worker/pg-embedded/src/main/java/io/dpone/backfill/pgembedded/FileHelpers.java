package io.dpone.backfill.pgembedded;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/** Small file helpers shared by the launcher classes. */
final class FileHelpers {
    private FileHelpers() {
    }

    /** Deletes a tree without following symlinks; files vanishing concurrently (another sweeper) are fine. */
    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                if (exc instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw exc;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null && !(exc instanceof NoSuchFileException)) {
                    throw exc;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** The last {@code maxLines} lines of a (possibly large, possibly missing) log file, for error messages. */
    static String tail(Path file, int maxLines) {
        final int maxBytes = 16 * 1024;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long length = raf.length();
            long start = Math.max(0, length - maxBytes);
            byte[] buffer = new byte[(int) (length - start)];
            raf.seek(start);
            raf.readFully(buffer);
            String text = new String(buffer, StandardCharsets.UTF_8).stripTrailing();
            String[] lines = text.split("\n", -1);
            int from = Math.max(0, lines.length - maxLines);
            // A cut first line is dropped when we started mid-file.
            if (start > 0 && from == 0 && lines.length > 1) {
                from = 1;
            }
            return String.join("\n", java.util.Arrays.asList(lines).subList(from, lines.length));
        } catch (IOException e) {
            return "<" + file + " not readable: " + e.getMessage() + ">";
        }
    }

    /** Text appended to a log file after {@code offset}, e.g. what one start attempt wrote. */
    static String readFrom(Path file, long offset) {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long length = raf.length();
            if (length <= offset) {
                return "";
            }
            byte[] buffer = new byte[(int) Math.min(length - offset, 1 << 20)];
            raf.seek(offset);
            raf.readFully(buffer);
            return new String(buffer, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    static long sizeOrZero(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
