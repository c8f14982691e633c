package io.dpone.backfill.operator.support;

import io.dpone.backfill.core.campaign.ResourceAmounts;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.operator.config.OperatorSettings;
import io.dpone.backfill.operator.reconciler.BackfillCampaignReconciler;
import io.dpone.backfill.operator.reconciler.OperatorComponents;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The reconciler on plain JOSDK against the mock API server (no Quarkus): starts in about a second. Short leases
 * (3 s TTL) so that a takeover after an operator restart is testable in seconds; lanes get the same timings.
 */
public final class TestOperator implements AutoCloseable {
    public static final EngineTimings TIMINGS = new EngineTimings(Duration.ofSeconds(3), Duration.ofMillis(500),
            Duration.ofSeconds(10), Duration.ofSeconds(3));
    public static final Map<String, String> LANE_ENV = Map.of("BACKFILL_LEASE_TTL_SECONDS", "3",
            "BACKFILL_LEASE_RENEW_SECONDS", "0.5", "BACKFILL_DRAIN_SECONDS", "10", "BACKFILL_LOCK_TIMEOUT_SECONDS", "3");

    public final OperatorComponents components;
    public final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Operator operator;
    /** The operator's own client: its requests are recorded and held to the chart's RBAC (MockCluster). */
    private final KubernetesClient operatorClient;

    public TestOperator(KubernetesClient client, String namespace, String instanceId) {
        this(client, namespace, settings(instanceId));
    }

    public TestOperator(KubernetesClient client, String namespace, OperatorSettings settings) {
        this(client, namespace, settings, null);
    }

    /** With {@code election} not null, leader election is on: only the leader reconciles. */
    public TestOperator(KubernetesClient client, String namespace, OperatorSettings settings, LeaderElectionConfiguration election) {
        this.components = OperatorComponents.create(settings, registry, Clock.systemUTC());
        this.operatorClient = MockCluster.operatorClient(client);
        this.operator = new Operator(o -> {
            o.withKubernetesClient(operatorClient)
                    .withUseSSAToPatchPrimaryResource(false)
                    .withCloseClientOnStop(false)
                    .checkingCRDAndValidateLocalModel(false)
                    .withCacheSyncTimeout(Duration.ofSeconds(20));
            if (election != null) {
                o.withLeaderElectionConfiguration(election);
            }
        });
        operator.register(new BackfillCampaignReconciler(components), o -> o.settingNamespace(namespace));
        operator.start();
    }

    public static OperatorSettings settings(String instanceId) {
        return settings(instanceId, TIMINGS);
    }

    /** The test settings with other campaign lease timings (lanes keep {@link #LANE_ENV}'s). */
    public static OperatorSettings settings(String instanceId, EngineTimings timings) {
        return new OperatorSettings(instanceId, timings,
                new OperatorSettings.LaneDefaults("backfill-lane:test", "IfNotPresent", List.of("backfill"),
                        new ResourceAmounts("100m", "256Mi"), new ResourceAmounts("1", "512Mi"), null, 65532),
                LANE_ENV, Duration.ofMillis(500), Duration.ofSeconds(2));
    }

    /** The same settings, with lane pods also allowed to run {@code images} (spec.lane.image). */
    public static OperatorSettings allowing(OperatorSettings s, String... images) {
        OperatorSettings.LaneDefaults l = s.lanes();
        return new OperatorSettings(s.instanceId(), s.timings(), new OperatorSettings.LaneDefaults(l.image(), l.imagePullPolicy(),
                l.command(), l.requests(), l.limits(), l.serviceAccountName(), l.runAsUser(), java.util.Set.of(images)),
                s.laneEnvironment(), s.activePoll(), s.progressInterval());
    }

    public Operator operator() {
        return operator;
    }

    /**
     * Dies like a killed pod: it stops reconciling and renewing and releases nothing; the caller ends its database
     * sessions on the server, as the server does for a vanished client.
     */
    public void crash() {
        operator.stop();
        components.holds().keeper().close();
        operatorClient.close();
    }

    /** Stops like a pod that receives SIGTERM: informers stop, every campaign lease is released. */
    @Override
    public void close() {
        try {
            operator.stop();
        } finally {
            components.close();
            operatorClient.close();
        }
    }
}
