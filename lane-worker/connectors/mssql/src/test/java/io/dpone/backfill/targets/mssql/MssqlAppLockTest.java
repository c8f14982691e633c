package io.dpone.backfill.targets.mssql;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Application lock names within sp_getapplock's 255 characters, and its result rule (negative = refused). */
class MssqlAppLockTest {
    @Test
    void aNameThatFitsIsUsedAsIs() {
        String name = "dpone-backfill-ledger:" + "s".repeat(128);
        assertThat(MssqlAppLock.resourceName(name)).isEqualTo(name);
        assertThat(MssqlAppLock.resourceName("x".repeat(255))).hasSize(255);
    }

    @Test
    void aLongNameBecomesItsHeadAndItsSha256AndFitsExactly() {
        String name = "dpone-backfill-publish:" + "t".repeat(300);

        String resource = MssqlAppLock.resourceName(name);

        assertThat(resource).hasSize(MssqlAppLock.MAX_NAME_LENGTH).startsWith("dpone-backfill-publish:ttt")
                .matches(".*#[0-9a-f]{64}");
        assertThat(MssqlAppLock.resourceName(name)).as("stable").isEqualTo(resource);
    }

    @Test
    void longNamesThatShareTheirFirst255CharactersGetDifferentLocks() {
        String head = "h".repeat(255);
        // SQL Server itself would truncate both to the same 255 characters: one lock for two resources.
        assertThat(MssqlAppLock.resourceName(head + "a")).isNotEqualTo(MssqlAppLock.resourceName(head + "b"));
    }

    @Test
    void theCutNeverSplitsASurrogatePair() {
        String name = "a".repeat(189) + "\uD83D\uDE00" + "z".repeat(100);

        String resource = MssqlAppLock.resourceName(name);

        assertThat(resource.length()).isLessThanOrEqualTo(MssqlAppLock.MAX_NAME_LENGTH);
        assertThat(Character.isHighSurrogate(resource.charAt(resource.indexOf('#') - 1))).isFalse();
    }

    @Test
    void zeroAndOneGrantAndEveryNegativeResultRefusesIncludingBabelfishsMinus999() {
        assertThat(MssqlAppLock.granted(0)).isTrue();
        assertThat(MssqlAppLock.granted(1)).isTrue();
        for (int refused : new int[] {-1, -2, -3, -999, -4}) {
            assertThat(MssqlAppLock.granted(refused)).as("result %d", refused).isFalse();
        }
    }
}
