package io.dpone.backfill.core.heal;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class ReconnectBackoffTest {
    private final AtomicLong now = new AtomicLong();
    private final HealingTimings timings = new HealingTimings(Duration.ofSeconds(60), Duration.ofMillis(500),
            Duration.ofSeconds(15), Duration.ofSeconds(120));
    private final ReconnectBackoff backoff = new ReconnectBackoff(timings, now::get);

    @Test
    void delaysDoubleFromTheFirstBackoffUpToTheLongest() {
        assertThat(backoff.failed()).contains(Duration.ofMillis(500));
        assertThat(backoff.failed()).contains(Duration.ofSeconds(1));
        assertThat(backoff.failed()).contains(Duration.ofSeconds(2));
        assertThat(backoff.failed()).contains(Duration.ofSeconds(4));
        assertThat(backoff.failed()).contains(Duration.ofSeconds(8));
        assertThat(backoff.failed()).contains(Duration.ofSeconds(15));
        for (int i = 0; i < 40; i++) {
            assertThat(backoff.failed()).contains(Duration.ofSeconds(15));
        }
    }

    @Test
    void anOutageLongerThanTheBudgetGivesUpAndHealingStartsANewOutage() {
        assertThat(backoff.failed()).isPresent();
        now.addAndGet(Duration.ofSeconds(59).toNanos());
        assertThat(backoff.remaining()).isEqualTo(Duration.ofSeconds(1));
        assertThat(backoff.failed()).isPresent();
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        assertThat(backoff.failed()).as("61 s into a 60 s budget").isEmpty();

        backoff.healed();
        assertThat(backoff.remaining()).isEqualTo(Duration.ofSeconds(60));
        assertThat(backoff.failed()).as("a new outage starts over").contains(Duration.ofMillis(500));
        assertThat(backoff.attempts()).isEqualTo(1);
    }

    @Test
    void timingsComeFromTheEnvironmentAndRefuseNonsenseNamingTheVariable() {
        HealingTimings t = HealingTimings.fromEnvironment(java.util.Map.of("BACKFILL_RECONNECT_BUDGET_SECONDS", "30",
                "BACKFILL_STALL_SECONDS", "4.5"));
        assertThat(t.budget()).isEqualTo(Duration.ofSeconds(30));
        assertThat(t.stallDeadline()).isEqualTo(Duration.ofMillis(4500));
        assertThat(HealingTimings.fromEnvironment(java.util.Map.of())).isEqualTo(HealingTimings.DEFAULTS);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> HealingTimings.fromEnvironment(
                        java.util.Map.of("BACKFILL_STALL_SECONDS", "-1")))
                .hasMessageContaining("BACKFILL_STALL_SECONDS");
    }

    @Test
    void aPauseWithinTheBudgetSaysWhyAndWhenTheNextAttemptComes() throws Exception {
        HealingTimings quick = new HealingTimings(Duration.ofSeconds(60), Duration.ofMillis(1), Duration.ofMillis(1),
                Duration.ofSeconds(120));
        ReconnectBackoff pausing = new ReconnectBackoff(quick, now::get);
        java.util.List<String> log = new java.util.ArrayList<>();

        pausing.pauseOrGiveUp("lane 0: connection lost", new java.sql.SQLException("reset", "08006"), log::add);

        assertThat(log).singleElement().asString().startsWith("lane 0: connection lost: ")
                .contains("reconnecting in 0.0 s (attempt 1, 60 s of the reconnect budget left)");
    }

    @Test
    void aPauseOverTheBudgetSaysSoAndThrowsTheCause() throws Exception {
        java.sql.SQLException cause = new java.sql.SQLException("reset", "08006");
        java.util.List<String> log = new java.util.ArrayList<>();
        backoff.failed();
        now.addAndGet(Duration.ofSeconds(61).toNanos());

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> backoff.pauseOrGiveUp("driver: connection lost", cause, log::add))
                .isSameAs(cause);
        assertThat(log).singleElement().asString()
                .startsWith("driver: connection lost: still failing after the reconnect budget (60 s,"
                        + " BACKFILL_RECONNECT_BUDGET_SECONDS); giving up: ");
    }
}
