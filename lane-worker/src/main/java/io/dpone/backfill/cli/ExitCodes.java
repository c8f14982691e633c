package io.dpone.backfill.cli;

import io.dpone.backfill.core.validation.CampaignRejectedException;

/** Maps failures to the documented exit codes. */
final class ExitCodes {
    private ExitCodes() {
    }

    static int forException(Throwable t) {
        return t instanceof CampaignRejectedException ? BackfillCli.EXIT_INVALID : BackfillCli.EXIT_FAILURE;
    }
}
