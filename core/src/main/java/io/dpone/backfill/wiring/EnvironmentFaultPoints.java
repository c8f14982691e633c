package io.dpone.backfill.wiring;

import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Test hook for crash tests, active only when BACKFILL_FAULT is set: {@code point:chunk} (chunk {@code *} for any,
 * several separated by commas). At the first matching point the process announces itself on stderr and stops itself
 * with SIGSTOP, frozen at exactly that point of the protocol: the test then SIGKILLs it (a crash there) or SIGCONTs
 * it (a zombie that wakes up late).
 */
public final class EnvironmentFaultPoints implements FaultPoints {
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private final Set<String> armed = new HashSet<>();

    private EnvironmentFaultPoints(String spec) {
        for (String part : spec.split(",")) {
            if (!part.isBlank()) {
                armed.add(part.trim());
            }
        }
    }

    public static FaultPoints fromEnvironment() {
        String spec = System.getenv("BACKFILL_FAULT");
        return spec == null || spec.isBlank() ? FaultPoints.NONE : new EnvironmentFaultPoints(spec);
    }

    @Override
    public boolean armed(FaultPoint point) {
        String prefix = point.wireName() + ":";
        synchronized (armed) {
            return armed.stream().anyMatch(a -> a.startsWith(prefix));
        }
    }

    @Override
    public void reached(FaultPoint fault, int chunkId) {
        String point = fault.wireName();
        String exact = point + ":" + chunkId;
        String any = point + ":*";
        boolean hit;
        synchronized (armed) {
            hit = armed.remove(exact) || armed.remove(any);
        }
        if (!hit) {
            return;
        }
        long pid = ProcessHandle.current().pid();
        System.err.println("FAULT " + point + " chunk=" + chunkId + " pid=" + pid);
        System.err.flush();
        try {
            // The helper runs in a session of its own (setsid). A lane, or a driver certify starts, leads its own
            // session, so its process group is orphaned; a helper exiting from that group while its parent is stopped
            // makes the kernel send the group SIGHUP and SIGCONT (POSIX job control), and the process would run on
            // past its fault point (seen: a publication committed after "FAULT in-publish").
            List<String> command = new ArrayList<>();
            if (Files.isExecutable(SETSID)) {
                command.add(SETSID.toString());
            }
            command.addAll(List.of("kill", "-STOP", Long.toString(pid)));
            new ProcessBuilder(command).inheritIO().start().waitFor();
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot stop at fault point " + point, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
