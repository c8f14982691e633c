package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.testsupport.mssql.SqlServerTestEngine;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The application lock on the resolved engine: a held lock refuses another session (SQL Server answers -1 on
 * timeout, Babelfish -999; both are below zero and both refuse), release lets it in, and a hashed long name locks.
 */
class MssqlAppLockIT {
    @Test
    void aHeldLockRefusesAnotherSessionUntilItIsReleased() throws SQLException {
        SqlServerTestEngine engine = SqlServerTestEngine.require();
        String database = engine.freshDatabase("applock");
        String name = "dpone-backfill-test:" + "long".repeat(80);
        try (Connection holder = engine.connect(database); Connection other = engine.connect(database)) {
            MssqlAppLock.acquire(holder, name, Duration.ofSeconds(5));

            assertThatThrownBy(() -> MssqlAppLock.acquire(other, name, Duration.ZERO))
                    .isInstanceOfSatisfying(DatabaseFailureException.class, e -> {
                        assertThat(e.isTransient()).isTrue();
                        assertThat(e.reason()).isEqualTo("LockNotGranted");
                        // The documented difference: SQL Server times out with -1, Babelfish reports -999.
                        assertThat(e.getMessage()).contains(engine.kind().isSqlServer()
                                ? "sp_getapplock returned -1" : "sp_getapplock returned -999");
                    });
            assertThatThrownBy(() -> MssqlAppLock.acquire(other, name, Duration.ofMillis(200)))
                    .as("a bounded wait is refused too").isInstanceOf(DatabaseFailureException.class);

            MssqlAppLock.release(holder, name);
            MssqlAppLock.acquire(other, name, Duration.ofSeconds(5));
            MssqlAppLock.release(other, name);
        }
    }
}
