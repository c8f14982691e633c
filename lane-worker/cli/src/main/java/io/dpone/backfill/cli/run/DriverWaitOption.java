package io.dpone.backfill.cli.run;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.time.Duration;

/** {@code --wait-for-driver}: how long a driver waits for another driver's live session to let go of the campaign. */
public final class DriverWaitOption {
    /** Long enough for a driver that is finishing (its drain is 120 s by default) to let go; short enough for a shell. */
    static final long DEFAULT_SECONDS = 120;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    private Duration bound = Duration.ofSeconds(DEFAULT_SECONDS);

    @Option(names = "--wait-for-driver", paramLabel = "SECONDS", defaultValue = "" + DEFAULT_SECONDS,
            description = {"When another driver's database session still holds the campaign (a live `run`, a stopped or"
                    + " partitioned process the server has not dropped), wait up to this long for it, printing who holds"
                    + " it, then exit 5.", "Default: ${DEFAULT-VALUE} s; 0 = do not wait. A driver whose session is gone"
                    + " is taken over at once."})
    void seconds(long seconds) {
        if (seconds < 0) {
            throw new ParameterException(command.commandLine(), "--wait-for-driver must be 0 or more seconds, got " + seconds);
        }
        bound = Duration.ofSeconds(seconds);
    }

    Duration bound() {
        return bound;
    }
}
