package io.dpone.backfill.cli.run;

import picocli.CommandLine.Command;

/** {@code backfill resume}: re-queues failed chunks (fresh attempt budget) and runs the campaign on. */
@Command(name = "resume", mixinStandardHelpOptions = true,
        description = {"Resume a campaign to its handoff after a crash or a Recoverable exit; committed chunks are never"
                + " loaded again.",
                "Failed chunks are re-queued with a fresh attempt budget. Same options and exit codes as `run`.",
                "Right after a crash of `run` (SIGKILL, a lost host) one resume is enough: the dead driver's session is"
                        + " gone, so its campaign is taken over at once (a new epoch fences it), without waiting for its"
                        + " lease to expire."})
public final class ResumeCommand extends RunCommand {
    @Override
    boolean resume() {
        return true;
    }
}
