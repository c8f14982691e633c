package io.dpone.backfill.pgembedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PgBinariesTest {

    @Test
    void concurrentInstallsYieldOneCompleteTree(@TempDir Path base) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<Path>> installs = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                installs.add(pool.submit(() -> PgBinaries.install(base)));
            }
            Path root = installs.get(0).get();
            for (Future<Path> f : installs) {
                assertThat(f.get()).isEqualTo(root);
            }
            assertThat(root.getFileName().toString()).matches("dpone-pg-17\\.6\\.0-[0-9a-f]{12}");
            assertThat(PgBinaries.isComplete(root)).isTrue();
            try (Stream<Path> entries = Files.list(base)) {
                assertThat(entries).as("no staging directories left, only the tree and the cross-JVM lock file")
                        .containsExactlyInAnyOrder(root, base.resolve(root.getFileName() + ".lock"));
            }

            Path postgres = root.resolve("bin/postgres");
            assertThat(Files.getPosixFilePermissions(postgres))
                    .contains(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OTHERS_EXECUTE,
                            PosixFilePermission.OTHERS_READ)
                    .doesNotContain(PosixFilePermission.OTHERS_WRITE);
            assertThat(Files.getPosixFilePermissions(root.resolve("share/postgresql/postgres.bki")))
                    .contains(PosixFilePermission.OTHERS_READ)
                    .doesNotContain(PosixFilePermission.OWNER_EXECUTE);
            Path libpq = root.resolve("lib/libpq.so.5");
            assertThat(Files.isSymbolicLink(libpq)).isTrue();
            assertThat(Files.readSymbolicLink(libpq)).isEqualTo(Path.of("libpq.so.5.17"));

            // A complete tree is reused as is.
            long marker = Files.getLastModifiedTime(root.resolve(".dpone-unpacked")).toMillis();
            assertThat(PgBinaries.install(base)).isEqualTo(root);
            assertThat(Files.getLastModifiedTime(root.resolve(".dpone-unpacked")).toMillis()).isEqualTo(marker);
        } finally {
            pool.shutdownNow();
        }
    }
}
