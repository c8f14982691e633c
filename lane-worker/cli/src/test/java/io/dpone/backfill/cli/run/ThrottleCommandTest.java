package io.dpone.backfill.cli.run;

import io.dpone.backfill.core.ledger.ThrottleSetting;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** `backfill throttle`'s options (issue 28): refused naming the spec field, and merged into the recorded setting. */
class ThrottleCommandTest {
    @Test
    void badOptionsAreRefusedNamingTheSpecFieldTheySet() {
        assertThat(ThrottleCommand.problem(0L, null, false, null)).hasValueSatisfying(p ->
                assertThat(p).startsWith("spec.throttle.rowsPerSecond (--rows-per-second) must be between 1 and"));
        assertThat(ThrottleCommand.problem(null, -1L, false, null)).hasValueSatisfying(p ->
                assertThat(p).startsWith("spec.throttle.bytesPerSecond (--bytes-per-second)"));
        assertThat(ThrottleCommand.problem(null, null, false, 0)).hasValueSatisfying(p ->
                assertThat(p).startsWith("spec.throttle.lanes (--lanes)"));
        assertThat(ThrottleCommand.problem(5L, null, true, null)).hasValueSatisfying(p -> assertThat(p).contains("--off"));
        assertThat(ThrottleCommand.problem(null, null, false, null)).isPresent();
        assertThat(ThrottleCommand.problem(5L, null, false, null)).isEmpty();
        assertThat(ThrottleCommand.problem(null, null, true, 2)).as("--off keeps the lanes it is given").isEmpty();
    }

    @Test
    void thePartsGivenReplaceTheRecordedOnesAndTheOthersStay() {
        ThrottleSetting recorded = new ThrottleSetting(100_000, 50_000_000, 4);

        assertThat(ThrottleCommand.next(recorded, 4, 20_000L, null, false, null))
                .isEqualTo(new ThrottleSetting(20_000, 50_000_000, 4));
        assertThat(ThrottleCommand.next(recorded, 4, null, null, true, null)).isEqualTo(new ThrottleSetting(0, 0, 4));
        assertThat(ThrottleCommand.next(recorded, 4, null, null, false, 2)).isEqualTo(new ThrottleSetting(100_000, 50_000_000, 2));
        assertThat(ThrottleCommand.next(ThrottleSetting.NONE, 4, 10L, null, false, null))
                .as("nothing recorded yet: the file's parallelWorkers").isEqualTo(new ThrottleSetting(10, 0, 4));
    }
}
