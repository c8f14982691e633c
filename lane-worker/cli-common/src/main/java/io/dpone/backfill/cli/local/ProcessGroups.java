package io.dpone.backfill.cli.local;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** Signals a whole process group (a lane and anything it started). */
final class ProcessGroups {
    private ProcessGroups() {
    }

    static void kill(Process process, boolean groupLeader) {
        if (groupLeader) {
            try {
                Process kill = new ProcessBuilder("kill", "-KILL", "--", "-" + process.pid())
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                kill.waitFor(5, TimeUnit.SECONDS);
            } catch (IOException e) {
                process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        process.destroyForcibly();
    }
}
