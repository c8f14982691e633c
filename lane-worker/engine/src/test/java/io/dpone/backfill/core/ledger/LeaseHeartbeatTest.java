package io.dpone.backfill.core.ledger;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The one silence rule of every lease holder: no successful renewal for most (eight tenths) of the TTL. */
class LeaseHeartbeatTest {
    private final AtomicLong nanos = new AtomicLong(1_000);
    private final LeaseHeartbeat heartbeat = new LeaseHeartbeat(Duration.ofSeconds(10), nanos::get);

    @Test
    void aRenewalWithinEightTenthsOfTheTtlKeepsTheLeaseAudible() {
        nanos.addAndGet(Duration.ofSeconds(8).toNanos());
        assertThat(heartbeat.silent()).isFalse();
        nanos.addAndGet(1);
        assertThat(heartbeat.silent()).isTrue();
        assertThat(heartbeat.silentSeconds()).isEqualTo(8);
    }

    @Test
    void aBeatStartsTheSilenceAgain() {
        nanos.addAndGet(Duration.ofSeconds(9).toNanos());
        heartbeat.beat();
        assertThat(heartbeat.silent()).isFalse();
        nanos.addAndGet(Duration.ofSeconds(7).toNanos());
        assertThat(heartbeat.silent()).isFalse();
        assertThat(heartbeat.silentSeconds()).isEqualTo(7);
    }
}
