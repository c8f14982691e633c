package io.dpone.backfill.operator.quarkus;

import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import org.jboss.logging.Logger;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * What this replica knows about the leader election: whether it leads now (readiness: only the leader is Ready), and
 * what to do when it stops leading. Losing the Lease while running ends the process (ADR 0010: a deposed leader must
 * not go on reconciling; its campaign leases expire behind it). Stopping to lead during shutdown does not:
 * JOSDK's own exit-on-stop-leading calls {@code System.exit} from {@code Operator.stop()}, which Quarkus runs inside
 * the JVM's shutdown hook, where {@code System.exit} blocks forever (java.lang.Runtime#exit) and the pod hangs until
 * SIGKILL. So the election is built with exitOnStopLeading = false and these callbacks decide; the exit itself runs
 * on its own thread, so that not even a missed shutdown signal can block the thread that stops the operator.
 */
public final class Leadership {
    private static final Logger LOG = Logger.getLogger(Leadership.class);

    private final AtomicBoolean leading = new AtomicBoolean();
    private final AtomicBoolean shuttingDown = new AtomicBoolean();
    private final IntConsumer exit;

    /** @param exit how the process ends when the Lease is lost while running ({@code System::exit} in production) */
    public Leadership(IntConsumer exit) {
        this.exit = exit;
    }

    /** The callbacks to give the leader election (JOSDK calls them before its own start and stop handling). */
    public LeaderCallbacks callbacks() {
        return new LeaderCallbacks(this::startedLeading, this::stoppedLeading, leader -> LOG.infof("Leader is now %s", leader));
    }

    public boolean leading() {
        return leading.get();
    }

    /** The operator is stopping on purpose (SIGTERM): giving back the Lease from now on is expected, not a loss. */
    public void shutdownStarted() {
        shuttingDown.set(true);
    }

    private void startedLeading() {
        leading.set(true);
        LOG.info("This replica leads: reconciling starts");
    }

    private void stoppedLeading() {
        leading.set(false);
        if (shuttingDown.get()) {
            // JOSDK 5.3.2 builds Fabric8's LeaderElectionConfig with releaseOnCancel = false: the Lease is not given
            // back, a standby takes it once it expires (leaseDuration after the last renewal).
            LOG.info("Leader election stopped with the operator; a standby takes the Lease when it expires");
            return;
        }
        LOG.error("This replica lost the leader election Lease while running: exiting, so that only the new leader reconciles");
        Thread exiting = new Thread(() -> exit.accept(1), "backfill-lost-leadership");
        exiting.setDaemon(true);
        exiting.start();
    }
}
