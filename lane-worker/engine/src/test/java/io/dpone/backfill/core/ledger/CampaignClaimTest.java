package io.dpone.backfill.core.ledger;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** What a waiting driver prints about the holder of the campaign: owner, host, since and until when. */
class CampaignClaimTest {
    private static final Instant SINCE = Instant.parse("2026-01-02T03:04:05Z");
    private static final Instant UNTIL = Instant.parse("2026-01-02T03:05:35Z");

    @Test
    void aCliOwnerNamesTheHostBetweenTheAtAndThePid() {
        CampaignClaim.Held held = CampaignClaim.heldBy("driver@build-7.example.org:4242:1a2b3c4d", SINCE, UNTIL);

        assertThat(held.host()).isEqualTo("build-7.example.org");
        assertThat(held.summary()).isEqualTo("driver@build-7.example.org:4242:1a2b3c4d on host build-7.example.org,"
                + " holding the lease since 2026-01-02T03:04:05Z (renewed until 2026-01-02T03:05:35Z)");
    }

    @Test
    void anOperatorOwnerIsItsPodNameWhichIsItsHost() {
        assertThat(CampaignClaim.heldBy("backfill-operator-5d8f7-x2kq9", SINCE, UNTIL).host()).isEqualTo("backfill-operator-5d8f7-x2kq9");
        assertThat(CampaignClaim.heldBy("rollback@db-admin", SINCE, UNTIL).host()).isEqualTo("db-admin");
    }

    @Test
    void aReleasedLeaseRowStillHeldByItsSessionSaysSo() {
        CampaignClaim.Held held = CampaignClaim.heldBy(null, null, null);

        assertThat(held.host()).isNull();
        assertThat(held.summary()).contains("already released");
    }
}
