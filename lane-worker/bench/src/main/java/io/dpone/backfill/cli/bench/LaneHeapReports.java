package io.dpone.backfill.cli.bench;

import io.dpone.backfill.lane.LaneHeapWatch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The directory the campaign's lanes write their peak heap after GC into (one file per lane process). */
final class LaneHeapReports {
    private final Path dir;

    LaneHeapReports(Path dir) {
        this.dir = dir;
    }

    /** The lanes' JVM option that makes them report here. */
    String laneOption() {
        return "-D" + LaneHeapWatch.PROPERTY + "=" + dir;
    }

    void clear() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(LaneHeapReports::isReport).toList()) {
                Files.delete(f);
            }
        }
    }

    List<Long> peaks() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(LaneHeapReports::isReport).sorted().map(LaneHeapReports::read).toList();
        }
    }

    private static boolean isReport(Path f) {
        return f.getFileName().toString().startsWith(LaneHeapWatch.FILE_PREFIX);
    }

    private static Long read(Path f) {
        try {
            return Long.parseLong(Files.readString(f).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
