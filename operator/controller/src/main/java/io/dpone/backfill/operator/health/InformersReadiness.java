package io.dpone.backfill.operator.health;

import io.dpone.backfill.operator.quarkus.Leadership;
import io.javaoperatorsdk.operator.Operator;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Ready once the operator has started, which JOSDK does only after the informers of campaigns and lane pods have
 * synced, as long as every event source is healthy, and, where leader election is on, only while this replica
 * leads. JOSDK 5.3.2 starts every informer on a standby too (only event processing waits for leadership), so
 * {@code isStarted()} alone is true on a standby; its RuntimeInfo says nothing about leadership, hence
 * {@link Leadership}. ADR 0010 and the chart's PodDisruptionBudget rely on "only the leader is Ready".
 */
@Readiness
@ApplicationScoped
public class InformersReadiness implements HealthCheck {
    private final Operator operator;
    private final Leadership leadership;

    public InformersReadiness(Operator operator, Leadership leadership) {
        this.operator = operator;
        this.leadership = leadership;
    }

    @Override
    public HealthCheckResponse call() {
        var info = operator.getRuntimeInfo();
        boolean started = info.isStarted();
        boolean healthy = started && info.allEventSourcesAreHealthy();
        boolean electing = operator.getConfigurationService().getLeaderElectionConfiguration().isPresent();
        boolean leads = !electing || leadership.leading();
        return HealthCheckResponse.named("backfill-informers")
                .status(healthy && leads)
                .withData("started", started)
                .withData("leader", electing ? String.valueOf(leadership.leading()) : "no election")
                .withData("unhealthy", started ? String.join(",", info.unhealthyEventSources().keySet()) : "not started")
                .build();
    }
}
