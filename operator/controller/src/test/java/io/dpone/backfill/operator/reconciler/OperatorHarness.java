package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.StatusJson;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.LaneRunner;
import io.dpone.backfill.operator.support.MockCluster;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** One test's world: mock cluster, databases, the lane runner (kubelet) and operators started and stopped at will. */
final class OperatorHarness implements AutoCloseable {
    static final String NS = "backfill";

    final MockCluster cluster = new MockCluster(NS);
    final KubernetesClient client = cluster.client;
    final PgCampaign db;
    final LaneRunner lanes;
    private final List<TestOperator> operators = new ArrayList<>();

    OperatorHarness(int rows, Path logDir) throws Exception {
        this.db = new PgCampaign(rows);
        db.secrets(client, NS);
        this.lanes = new LaneRunner(client, NS, logDir);
    }

    TestOperator startOperator(String instanceId) {
        return startOperator(TestOperator.settings(instanceId));
    }

    TestOperator startOperator(io.dpone.backfill.operator.config.OperatorSettings settings) {
        TestOperator op = new TestOperator(client, NS, settings);
        operators.add(op);
        return op;
    }

    BackfillCampaign apply(BackfillCampaign campaign) {
        return client.resource(campaign).create();
    }

    BackfillCampaign get(String name) {
        return client.resources(BackfillCampaign.class).inNamespace(NS).withName(name).get();
    }

    BackfillCampaignStatus status(String name) {
        BackfillCampaign c = get(name);
        return c == null ? null : c.getStatus();
    }

    CampaignPhase phase(String name) {
        BackfillCampaignStatus s = status(name);
        return s == null ? null : s.getPhase();
    }

    void awaitPhase(String name, CampaignPhase phase, Duration timeout) throws Exception {
        Await.until(timeout, () -> phase(name) == phase, () -> "phase " + phase + " of " + name + "; status "
                + (status(name) == null ? null : StatusJson.write(status(name))) + "\nlanes:\n" + lanes.allOutput());
    }

    List<Pod> pods() {
        return client.pods().inNamespace(NS).list().getItems();
    }

    List<Event> events() {
        return client.v1().events().inNamespace(NS).list().getItems();
    }

    List<String> eventReasons() {
        return events().stream().map(Event::getReason).toList();
    }

    /** Events are recorded right after the status is written: wait for them rather than race. */
    void awaitEvents(String... reasons) throws Exception {
        Await.until(Duration.ofSeconds(20), () -> eventReasons().containsAll(List.of(reasons)),
                () -> "events " + List.of(reasons) + "; seen " + eventReasons());
    }

    @Override
    public void close() {
        operators.forEach(TestOperator::close);
        lanes.close();
        cluster.close();
    }
}
