package io.dpone.backfill.lane;

import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;
import picocli.CommandLine;

import java.io.PrintWriter;

/** Prints a failure for a person: field errors one per line, other failures as one line without a stack trace. */
public final class FailureReporter implements CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
        PrintWriter err = cmd.getErr();
        if (ex instanceof CampaignRejectedException rejected) {
            err.println("error: invalid campaign (" + rejected.errors().size() + " problem"
                    + (rejected.errors().size() == 1 ? "" : "s") + "), nothing was created:");
            for (FieldError e : rejected.errors()) {
                err.println("  " + e);
            }
        } else {
            err.println("error: " + (ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage()));
            if (System.getenv("BACKFILL_DEBUG") != null) {
                ex.printStackTrace(err);
            }
        }
        err.flush();
        return ExitCodes.forException(ex);
    }
}
