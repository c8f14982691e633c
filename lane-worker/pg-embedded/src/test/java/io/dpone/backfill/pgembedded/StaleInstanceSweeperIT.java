package io.dpone.backfill.pgembedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class StaleInstanceSweeperIT {

    @Test
    void stopsAndRemovesTheServerOfADeadJvm() throws Exception {
        EmbeddedPostgres pg = EmbeddedPostgres.start();
        ProcessHandle postmaster = ProcessHandle.of(pg.postmasterPid()).orElseThrow();
        Path instanceDir = pg.dataDirectory().getParent();
        // Pretend the JVM that started it was killed: its shutdown hook never ran.
        OwnerFile.write(instanceDir, new OwnerFile.Owner(TestSupport.deadPid(), 0, PgBinaries.install().resolve("bin")));

        StaleInstanceSweeper.sweep(TempRoot.get());

        assertThat(Processes.isRunning(postmaster)).isFalse();
        assertThat(instanceDir).doesNotExist();
        pg.close(); // nothing left to do, and must not fail
        pg.close();
    }

    @Test
    void removesDeadOwnersDirectoriesAndKeepsLiveOnes() throws Exception {
        Path base = TempRoot.get();
        Path dead = Files.createTempDirectory(base, StaleInstanceSweeper.INSTANCE_PREFIX);
        Path live = Files.createTempDirectory(base, StaleInstanceSweeper.INSTANCE_PREFIX);
        Path reusedPid = Files.createTempDirectory(base, StaleInstanceSweeper.INSTANCE_PREFIX);
        Path ownerless = Files.createTempDirectory(base, StaleInstanceSweeper.INSTANCE_PREFIX);
        try {
            OwnerFile.write(dead, new OwnerFile.Owner(TestSupport.deadPid(), 0, null));
            Files.createDirectories(dead.resolve("data"));
            Files.writeString(dead.resolve("data/postmaster.pid"), TestSupport.deadPid() + "\n" + dead + "\n");
            OwnerFile.write(live, OwnerFile.Owner.currentJvm(null));
            // Our pid, but a start time a day off: the pid now belongs to another process, the owner is gone.
            OwnerFile.Owner self = OwnerFile.Owner.currentJvm(null);
            OwnerFile.write(reusedPid, new OwnerFile.Owner(self.pid(), self.startMillis() - 86_400_000L, null));

            StaleInstanceSweeper.sweep(base);

            assertThat(dead).doesNotExist();
            assertThat(reusedPid).doesNotExist();
            assertThat(live).isDirectory();
            assertThat(ownerless).as("fresh directory still being set up").isDirectory();
        } finally {
            FileHelpers.deleteRecursively(dead);
            FileHelpers.deleteRecursively(live);
            FileHelpers.deleteRecursively(reusedPid);
            FileHelpers.deleteRecursively(ownerless);
        }
    }
}
