package io.dpone.backfill.cli;

import picocli.CommandLine.Command;

/** {@code backfill resume}: re-queues failed chunks (fresh attempt budget) and runs the campaign on. */
@Command(name = "resume", mixinStandardHelpOptions = true,
        description = {"Resume a campaign: failed chunks are re-queued with a fresh attempt budget, committed chunks are never",
                "loaded again, and the campaign runs on to its handoff. Same options and exit codes as `run`.",
                "Right after a crash of `run` (SIGKILL, a lost host) one resume is enough: the dead driver's session is gone,",
                "so its campaign is taken over at once (a new epoch fences it), without waiting for its lease to expire."})
final class ResumeCommand extends RunCommand {
    @Override
    boolean resume() {
        return true;
    }
}
