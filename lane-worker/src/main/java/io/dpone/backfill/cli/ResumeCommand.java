package io.dpone.backfill.cli;

import picocli.CommandLine.Command;

/** {@code backfill resume}: re-queues failed chunks (fresh attempt budget) and runs the campaign on. */
@Command(name = "resume", mixinStandardHelpOptions = true,
        description = {"Resume a campaign: failed chunks are re-queued with a fresh attempt budget, committed chunks are never",
                "loaded again, and the campaign runs on to its handoff. Same options and exit codes as `run`."})
final class ResumeCommand extends RunCommand {
    @Override
    boolean resume() {
        return true;
    }
}
