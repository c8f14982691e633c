package io.dpone.backfill.operator.quarkus;

import io.dpone.backfill.operator.config.OperatorConfig;
import io.dpone.backfill.operator.config.OperatorSettings;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Leader election for the prod profile (QOSDK activates it for the profiles in
 * {@code quarkus.operator-sdk.activate-leader-election-for-profiles}). It keeps two replicas from reconciling at
 * once, but it is not a fence: the campaign lease in the ledger is, so a deposed leader's publication fails there.
 * A leader that loses its Lease exits, and its campaign leases expire behind it. JOSDK 5's builder cannot say so
 * ({@code withExitOnStopLeading} throws outside tests and {@code build()} means "do not exit"); this constructor
 * does.
 */
@Singleton
public class LeaderElection {
    @Produces
    @Singleton
    LeaderElectionConfiguration leaderElection(OperatorConfig config, OperatorSettings settings) {
        String namespace = config.leaderElectionNamespace().filter(ns -> !ns.isBlank()).orElse(null);
        return new LeaderElectionConfiguration(config.leaderElectionLeaseName(), namespace, settings.instanceId());
    }
}
