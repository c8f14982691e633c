package io.dpone.backfill.operator.quarkus;

import io.dpone.backfill.operator.config.OperatorConfig;
import io.dpone.backfill.operator.config.OperatorSettings;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfigurationBuilder;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Leader election for the prod profile (QOSDK activates it for the profiles in
 * {@code quarkus.operator-sdk.activate-leader-election-for-profiles}). It keeps two replicas from reconciling at
 * once, but it is not a fence: the campaign lease in the ledger is, so a deposed leader's publication fails there.
 * A leader that loses its Lease exits (JOSDK's default), and its campaign leases expire behind it.
 */
@Singleton
public class LeaderElection {
    @Produces
    @Singleton
    LeaderElectionConfiguration leaderElection(OperatorConfig config, OperatorSettings settings) {
        LeaderElectionConfigurationBuilder builder = LeaderElectionConfigurationBuilder
                .aLeaderElectionConfiguration(config.leaderElectionLeaseName())
                .withIdentity(settings.instanceId())
                .withExitOnStopLeading(true);
        config.leaderElectionNamespace().filter(ns -> !ns.isBlank()).ifPresent(builder::withLeaseNamespace);
        return builder.build();
    }
}
