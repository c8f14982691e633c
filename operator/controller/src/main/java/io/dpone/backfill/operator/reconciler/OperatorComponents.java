package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.operator.config.OperatorSettings;
import io.dpone.backfill.operator.driver.CampaignDriver;
import io.dpone.backfill.operator.driver.CampaignHolds;
import io.dpone.backfill.operator.driver.SecretResolver;
import io.dpone.backfill.operator.events.CampaignEvents;
import io.dpone.backfill.operator.lanes.LaneImages;
import io.dpone.backfill.operator.lanes.LanePodFactory;
import io.dpone.backfill.operator.lanes.LaneSupervisor;
import io.dpone.backfill.operator.metrics.CampaignMetrics;
import io.dpone.backfill.operator.status.StatusAssembler;
import io.dpone.backfill.operator.status.StatusWriter;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Clock;

/**
 * The reconciler's collaborators, wired once: by the Quarkus producer in the application, by hand in the plain
 * JOSDK tests. Closing it releases every campaign lease the operator holds.
 */
public record OperatorComponents(OperatorSettings settings, CampaignHolds holds, CampaignDriver driver,
                                 LaneSupervisor lanes, StatusAssembler assembler, StatusWriter statusWriter,
                                 CampaignEvents events, CampaignMetrics metrics, LaneImages laneImages) implements AutoCloseable {

    public static OperatorComponents create(OperatorSettings settings, MeterRegistry registry, Clock clock) {
        CampaignHolds holds = new CampaignHolds(settings.timings(), clock);
        LaneSupervisor lanes = new LaneSupervisor(new LanePodFactory(settings), settings.timings().drainTimeout(), clock);
        CampaignDriver driver = new CampaignDriver(settings, holds, new SecretResolver(), lanes, clock);
        return new OperatorComponents(settings, holds, driver, lanes, new StatusAssembler(clock),
                new StatusWriter(clock, settings.progressInterval()), new CampaignEvents(clock, settings.instanceId()),
                new CampaignMetrics(registry), new LaneImages(settings.lanes()));
    }

    @Override
    public void close() {
        holds.close();
    }
}
