package io.dpone.backfill.operator.quarkus;

import io.dpone.backfill.core.campaign.ResourceAmounts;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.operator.config.OperatorConfig;
import io.dpone.backfill.operator.config.OperatorSettings;
import io.dpone.backfill.operator.reconciler.OperatorComponents;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Clock;
import java.util.UUID;

/** Wires the operator's components from its typed configuration (the plain JOSDK tests wire them by hand). */
@Singleton
public class OperatorProducers {
    @Produces
    @Singleton
    OperatorSettings settings(OperatorConfig config) {
        var lane = config.lane();
        String instance = config.instanceId().filter(s -> !s.isBlank())
                .orElseGet(() -> System.getenv().getOrDefault("HOSTNAME", "backfill-operator-" + UUID.randomUUID()));
        return new OperatorSettings(instance, EngineTimings.fromEnvironment(System.getenv()),
                new OperatorSettings.LaneDefaults(lane.image(), lane.imagePullPolicy(), lane.command(),
                        new ResourceAmounts(lane.cpuRequest(), lane.memoryRequest()), new ResourceAmounts(lane.cpuLimit(), lane.memoryLimit()),
                        lane.serviceAccount().orElse(null), lane.runAsUser(), java.util.Set.copyOf(lane.allowedImages().orElse(java.util.List.of()))),
                OperatorSettings.timingEnvironment(System.getenv()), config.activePoll(), config.progressInterval());
    }

    @Produces
    @Singleton
    OperatorComponents components(OperatorSettings settings, MeterRegistry registry) {
        return OperatorComponents.create(settings, registry, Clock.systemUTC());
    }

    /** On shutdown every campaign lease is released, so the next leader takes over without waiting for expiry. */
    void onStop(@Observes ShutdownEvent event, OperatorComponents components) {
        components.close();
    }
}
