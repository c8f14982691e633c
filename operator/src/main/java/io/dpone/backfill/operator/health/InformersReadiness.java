package io.dpone.backfill.operator.health;

import io.javaoperatorsdk.operator.Operator;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Ready once the operator has started, which JOSDK does only after the informers of campaigns and lane pods have
 * synced, and as long as every event source is healthy. A standby replica (not the leader) is not ready.
 */
@Readiness
@ApplicationScoped
public class InformersReadiness implements HealthCheck {
    private final Operator operator;

    public InformersReadiness(Operator operator) {
        this.operator = operator;
    }

    @Override
    public HealthCheckResponse call() {
        var info = operator.getRuntimeInfo();
        boolean started = info.isStarted();
        boolean healthy = started && info.allEventSourcesAreHealthy();
        return HealthCheckResponse.named("backfill-informers")
                .status(healthy)
                .withData("started", started)
                .withData("unhealthy", started ? String.join(",", info.unhealthyEventSources().keySet()) : "not started")
                .build();
    }
}
