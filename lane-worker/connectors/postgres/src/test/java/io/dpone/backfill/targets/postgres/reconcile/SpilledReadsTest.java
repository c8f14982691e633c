package io.dpone.backfill.targets.postgres.reconcile;

import io.dpone.backfill.core.lane.ChunkRows;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SpilledReadsTest {
    @Test
    void eachSourceReadLandsInAFileOfItsOwnWhileTheSessionRunsItsOwnRead() throws Exception {
        AtomicBoolean ownDone = new AtomicBoolean();
        List<Path> files = SpilledReads.whileReading(List.of(() -> rows("a\n", "b\n"), () -> rows("c\n")), () -> {
            sleep(50);
            ownDone.set(true);
        });
        assertThat(ownDone).isTrue();
        assertThat(Files.readString(files.get(0), StandardCharsets.UTF_8)).isEqualTo("a\nb\n");
        assertThat(Files.readString(files.get(1), StandardCharsets.UTF_8)).isEqualTo("c\n");
        files.forEach(f -> f.toFile().delete());
    }

    @Test
    void aFailedSourceReadWaitsForTheSessionsOwnReadThenFailsLeavingNoFile() {
        AtomicBoolean ownDone = new AtomicBoolean();
        assertThatThrownBy(() -> SpilledReads.whileReading(List.of(() -> rows("a\n"), () -> {
            throw new SQLException("source gone");
        }), () -> {
            sleep(200);
            ownDone.set(true);
        })).hasMessage("source gone");
        // The session is free again when the failure is reported: the caller may use it at once.
        assertThat(ownDone).isTrue();
    }

    @Test
    void aFailureOfTheSessionsOwnReadIsReportedAsItself() {
        assertThatThrownBy(() -> SpilledReads.whileReading(List.of(() -> rows("a\n")), () -> {
            throw new SQLException("target busy");
        })).isInstanceOf(SQLException.class).hasMessage("target busy");
    }

    private static void sleep(long millis) throws SQLException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new SQLException(e);
        }
    }

    private static ChunkRows rows(String... lines) {
        return new ChunkRows() {
            private int next = -1;

            @Override
            public boolean next() {
                return ++next < lines.length;
            }

            @Override
            public byte[] copyBytes() {
                return lines[next].getBytes(StandardCharsets.UTF_8);
            }

            @Override
            public void close() {
            }
        };
    }
}
