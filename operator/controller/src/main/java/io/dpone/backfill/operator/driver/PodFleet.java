package io.dpone.backfill.operator.driver;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.driver.LaneFleet;
import io.dpone.backfill.operator.lanes.ConnectionSecret;
import io.dpone.backfill.operator.lanes.LanePods;
import io.dpone.backfill.operator.lanes.LaneReport;
import io.dpone.backfill.operator.lanes.LaneSupervisor;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * One pass's lanes as pods (ADR 0007): the pass's snapshot of its lane pods, what the {@link LaneSupervisor} did
 * with them, and the events that is worth. Pods this pass created are not in its snapshot, so once lanes are
 * started in a pass, a later ask in the same pass is not sent again (the API server would refuse the names).
 */
final class PodFleet implements LaneFleet {
    private final LaneSupervisor supervisor;
    private final KubernetesClient client;
    private final BackfillCampaign campaign;
    private final BackfillCampaignSpec spec;
    private final String runKey;
    private final ConnectionSecret source;
    private final ConnectionSecret target;
    private final Clock clock;
    private final PassNotes notes;
    private LanePods pods;
    /** What the supervisor last did this pass; null while it was not asked. */
    private LaneReport report;
    private boolean started;

    PodFleet(LaneSupervisor supervisor, KubernetesClient client, BackfillCampaign campaign, BackfillCampaignSpec spec,
             String runKey, LanePods pods, ConnectionSecret source, ConnectionSecret target, Clock clock, PassNotes notes) {
        this.supervisor = supervisor;
        this.client = client;
        this.campaign = campaign;
        this.spec = spec;
        this.runKey = runKey;
        this.pods = pods;
        this.source = source;
        this.target = target;
        this.clock = clock;
        this.notes = notes;
    }

    @Override
    public Optional<BudgetSpent> keep(int lanes) {
        if (started) {
            return Optional.empty();
        }
        report = supervisor.ensure(client, campaign, spec, runKey, lanes, pods, source, target);
        int budget = spec.getLane().getMaxPodFailures();
        report.replacedFailures().forEach(p -> notes.add("LanePodReplaced", "lane pod " + p + " failed and was replaced"
                + " (failure " + pods.failures(runKey) + " of budget " + budget + ")", true));
        report.replacedDisruptions().forEach(p -> notes.add("LanePodDisrupted", "lane pod " + p + " was taken away by the"
                + " cluster (eviction, drain, preemption) and replaced; not counted against the budget", false));
        if (report.budgetExceeded()) {
            return Optional.of(new BudgetSpent("lane pods failed " + report.failures() + " times (budget " + report.budget()
                    + "); read their logs: kubectl logs -n " + campaign.getMetadata().getNamespace()
                    + " -l backfill.dpone.io/campaign=" + campaign.getMetadata().getName()));
        }
        started = true;
        return Optional.empty();
    }

    @Override
    public void drain() {
        supervisor.drain(client, pods);
    }

    /** A handed-off campaign keeps no pod, failed ones (kept for their logs until a re-queue) included. */
    @Override
    public void finish() {
        supervisor.deleteAll(client, pods.all());
    }

    /** A re-queue gives the lanes a new failure budget: the failed pods, kept for their logs until now, go. */
    void removeFailed() {
        List<Pod> failed = pods.failed(runKey);
        supervisor.deleteAll(client, failed);
        pods = pods.without(failed);
    }

    /** What the lanes did this pass, or how they stand when they were not asked. */
    LaneReport report() {
        return report != null ? report : LaneReport.idle(pods.failures(runKey), spec.getLane().getMaxPodFailures(),
                pods.active().size(), pods.stuck(runKey, clock.instant()));
    }
}
