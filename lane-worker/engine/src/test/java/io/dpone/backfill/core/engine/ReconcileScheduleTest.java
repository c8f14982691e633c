package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.ReconcileMode;
import io.dpone.backfill.core.campaign.ReconcileSpec;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** When the spec's passes are done (ADR 0057), judged from the passes alone: the same after any crash. */
class ReconcileScheduleTest {
    private static final Instant T0 = Instant.parse("2026-12-05T00:00:00Z");

    private static ReconcileSpec until(Long maxChangedRows, String deadline, Integer maxPasses) {
        ReconcileSpec s = new ReconcileSpec();
        s.setMode(ReconcileMode.UNTIL);
        s.setMaxChangedRows(maxChangedRows);
        s.setDeadline(deadline);
        s.setMaxPasses(maxPasses);
        return s;
    }

    private static HandoffPasses.Pass pass(int n, long changed, boolean finished, int minutesAfterT0) {
        return new HandoffPasses.Pass(n, String.valueOf(100 + n), T0.plusSeconds(60L * minutesAfterT0), finished, changed, 0, 0);
    }

    @Test
    void theFirstPassAlwaysRunsAndAnInterruptedOneIsFinishedWhateverTheBounds() {
        ReconcileSpec spec = until(1000L, "1m", 1);
        assertThat(ReconcileSchedule.done(spec, List.of(), T0)).isEmpty();
        assertThat(ReconcileSchedule.done(spec, List.of(pass(1, 0, false, 0)), T0.plusSeconds(3600))).isEmpty();
    }

    @Test
    void onceIsDoneAfterOneFinishedPass() {
        ReconcileSpec once = new ReconcileSpec();
        once.setMode(ReconcileMode.ONCE);
        assertThat(ReconcileSchedule.done(once, List.of(pass(1, 500, true, 0)), T0)).get().asString().contains("once");
    }

    @Test
    void untilStopsOnTheChangedRowsBoundTheDeadlineOrThePassLimitWhicheverComesFirst() {
        assertThat(ReconcileSchedule.done(until(10L, null, 5), List.of(pass(1, 11, true, 0)), T0)).isEmpty();
        assertThat(ReconcileSchedule.done(until(10L, null, 5), List.of(pass(1, 11, true, 0), pass(2, 10, true, 1)), T0))
                .get().asString().contains("maxChangedRows 10");
        assertThat(ReconcileSchedule.done(until(null, "30m", 5), List.of(pass(1, 11, true, 0)), T0.plusSeconds(29 * 60)))
                .isEmpty();
        assertThat(ReconcileSchedule.done(until(null, "30m", 5), List.of(pass(1, 11, true, 0)), T0.plusSeconds(30 * 60)))
                .get().asString().contains("deadline 30m");
        assertThat(ReconcileSchedule.done(until(0L, null, 2), List.of(pass(1, 11, true, 0), pass(2, 9, true, 1)), T0))
                .get().asString().contains("maxPasses 2");
    }

    @Test
    void offIsAlwaysDone() {
        assertThat(ReconcileSchedule.done(null, List.of(), T0)).isPresent();
    }
}
