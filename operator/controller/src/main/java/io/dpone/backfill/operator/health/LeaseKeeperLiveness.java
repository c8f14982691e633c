package io.dpone.backfill.operator.health;

import io.dpone.backfill.operator.reconciler.OperatorComponents;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Alive while the campaign-lease renewal loop keeps its schedule. If it stalls, the operator would lose every
 * campaign it drives once the leases expire; a restart is the remedy, which is what a failing liveness probe does.
 */
@Liveness
@ApplicationScoped
public class LeaseKeeperLiveness implements HealthCheck {
    private final OperatorComponents components;

    public LeaseKeeperLiveness(OperatorComponents components) {
        this.components = components;
    }

    @Override
    public HealthCheckResponse call() {
        boolean alive = components.holds().keeper().alive();
        return HealthCheckResponse.named("backfill-lease-keeper")
                .status(alive)
                .withData("campaignsHeld", components.holds().openKeys().size())
                .build();
    }
}
