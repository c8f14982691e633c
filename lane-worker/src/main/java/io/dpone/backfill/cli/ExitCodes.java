package io.dpone.backfill.cli;

import io.dpone.backfill.core.validation.CampaignRejectedException;
import picocli.CommandLine;

/** Maps failures to the documented exit codes. */
final class ExitCodes {
    private ExitCodes() {
    }

    static int forException(Throwable t) {
        // An option checked inside a command (bench, demo) is a usage error like one picocli rejects itself.
        return t instanceof CampaignRejectedException || t instanceof CommandLine.ParameterException
                ? BackfillCli.EXIT_INVALID : BackfillCli.EXIT_FAILURE;
    }
}
