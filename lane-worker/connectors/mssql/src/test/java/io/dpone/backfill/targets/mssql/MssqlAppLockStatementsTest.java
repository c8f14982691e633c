package io.dpone.backfill.targets.mssql;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the application-lock calls send, driven through a recording connection. sp_getapplock's {@code @Resource} is
 * nvarchar(255) (sql-docs docs/relational-databases/system-stored-procedures/sp-getapplock-transact-sql.md: "a
 * lock resource ... whose length is 255 characters" - a longer value is truncated, so two names sharing a 255-char
 * head would share one lock); {@code @LockTimeout} is int.
 */
class MssqlAppLockStatementsTest {
    private static final String LONG = WorstCaseNames.ofLength("lock", 600);

    @Test
    void everyLockCallObeysTheGrammarAndBindsOneValuePerMarker() throws SQLException {
        RecordingConnection recording = new RecordingConnection();
        MssqlAppLock.acquire(recording.connection(), LONG, Duration.ofSeconds(30));
        MssqlAppLock.tryAcquire(recording.connection(), LONG);
        MssqlAppLock.acquireInTransaction(recording.connection(), LONG, Duration.ofSeconds(30));
        MssqlAppLock.release(recording.connection(), LONG);

        assertThat(recording.sent()).hasSize(4).allSatisfy(s -> assertThat(s.problems()).isEmpty());
    }

    @Test
    void theResourceBoundIsAtMost255CharactersAndTwoLongNamesWithOneHeadStayApart() throws SQLException {
        RecordingConnection recording = new RecordingConnection();
        MssqlAppLock.acquire(recording.connection(), LONG + "a", Duration.ofSeconds(1));
        MssqlAppLock.acquire(recording.connection(), LONG + "b", Duration.ofSeconds(1));
        MssqlAppLock.tryAcquire(recording.connection(), LONG + "c");
        MssqlAppLock.acquireInTransaction(recording.connection(), LONG + "d", Duration.ofSeconds(1));
        MssqlAppLock.release(recording.connection(), LONG + "e");

        assertThat(recording.sent()).allSatisfy(s ->
                assertThat(((String) s.parameter(1)).length()).isLessThanOrEqualTo(MssqlAppLock.MAX_NAME_LENGTH));
        assertThat(recording.sent().stream().map(s -> s.parameter(1)).distinct()).hasSize(5);
    }
}
