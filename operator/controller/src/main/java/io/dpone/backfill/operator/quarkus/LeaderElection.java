package io.dpone.backfill.operator.quarkus;

import io.dpone.backfill.operator.config.OperatorConfig;
import io.dpone.backfill.operator.config.OperatorSettings;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Duration;

/**
 * Leader election for the prod profile (QOSDK activates it for the profiles in
 * {@code quarkus.operator-sdk.activate-leader-election-for-profiles}). It keeps two replicas from reconciling at
 * once, but it is not a fence: the campaign lease in the ledger is, so a deposed leader's publication fails there.
 * A leader that loses its Lease while running exits ({@link Leadership}); one that is shut down stops normally and
 * leaves the Lease to expire (JOSDK 5.3.2 does not release it), after which a standby leads. JOSDK's own exitOnStopLeading is off: it would call System.exit from Operator.stop() inside
 * the shutdown hook and hang the pod until SIGKILL (ADR 0029).
 */
@Singleton
public class LeaderElection {
    @Produces
    @Singleton
    Leadership leadership() {
        return new Leadership(System::exit);
    }

    @Produces
    @Singleton
    LeaderElectionConfiguration leaderElection(OperatorConfig config, OperatorSettings settings, Leadership leadership) {
        String namespace = config.leaderElectionNamespace().filter(ns -> !ns.isBlank()).orElse(null);
        return configuration(config.leaderElectionLeaseName(), namespace, settings.instanceId(), leadership,
                LeaderElectionConfiguration.LEASE_DURATION_DEFAULT_VALUE, LeaderElectionConfiguration.RENEW_DEADLINE_DEFAULT_VALUE,
                LeaderElectionConfiguration.RETRY_PERIOD_DEFAULT_VALUE);
    }

    /** The election with these timings (tests shorten them); JOSDK never exits by itself, {@code leadership} decides. */
    public static LeaderElectionConfiguration configuration(String leaseName, String namespace, String identity, Leadership leadership,
                                                            Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        // build() leaves exitOnStopLeading false (JOSDK 5.3.2 LeaderElectionConfigurationBuilder.build).
        return LeaderElectionConfigurationBuilder.aLeaderElectionConfiguration(leaseName).withLeaseNamespace(namespace)
                .withIdentity(identity).withLeaderCallbacks(leadership.callbacks()).withLeaseDuration(leaseDuration)
                .withRenewDeadline(renewDeadline).withRetryPeriod(retryPeriod).build();
    }

    /** Before QOSDK stops the operator (default observer priority), so that leadership ending with it is not taken as a loss. */
    void onStop(@Observes @Priority(1) ShutdownEvent event, Leadership leadership) {
        leadership.shutdownStarted();
    }
}
