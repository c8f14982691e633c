package io.dpone.backfill.cli.kubectl;

import io.dpone.backfill.testsupport.RepositoryRoot;
import io.dpone.backfill.cli.BackfillCli;
import io.dpone.backfill.lane.LaneMain;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kubectl plugin against Fabric8's mock API server (CRUD mode): a campaign with a status, its lane pods and its
 * Events, read by {@code kubectl backfill status}; the actions patch exactly what the operator reads, once.
 */
class KubectlPluginIT {
    static final String NS = "shop";
    static final String CAMPAIGN = """
            apiVersion: backfill.dpone.io/v1alpha1
            kind: BackfillCampaign
            metadata: {name: orders, namespace: shop, generation: 1}
            spec:
              backfillId: orders-initial
              source: {connectionSecretRef: {name: src-db}, table: orders}
              target: {type: postgres, connectionSecretRef: {name: tgt-db}, table: orders}
              uniqueKey: [id]
              chunk: {column: id, kind: uuid, buckets: 512}
              parallelWorkers: 2
            status:
              phase: Loading
              observedGeneration: 1
              runKey: rk-f031fff10c7bcf05b88089c4
              conditions:
              - {type: Ready, status: "False", reason: Loading, message: "the campaign is Loading, not yet handed off", observedGeneration: 1}
              - {type: Reconciling, status: "True", reason: Loading, message: lanes are loading chunks, observedGeneration: 1}
              - {type: Stalled, status: "False", reason: NotStalled, message: "", observedGeneration: 1}
              - {type: Degraded, status: "True", reason: LanePodsStuck, message: "lane pods cannot start: orders-lane-1-2", observedGeneration: 1}
              progress:
                totalChunks: 512
                pendingChunks: 295
                runningChunks: 4
                committedChunks: 212
                failedChunks: 1
                rowsExtracted: 205112003
                rowsLoaded: 205112003
                rowsPerSecond: 612400.0
                etaSeconds: 492
                chunks: 212/512
                eta: 8m12s
              publication: {mode: shadow_swap, phase: not_published, validation: pending,
                            shadowTable: public.orders__bf_0784d619_shadow, backupTable: public.orders__bf_0784d619_backup}
              handoff: {anchorXmin: "48213377"}
              recommendedAction: "none: lanes are loading chunks"
            """;

    KubernetesMockServer server;
    KubernetesClient client;

    @BeforeEach
    void cluster() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init();
        client = server.createClient();
        client.genericKubernetesResources(Campaigns.CONTEXT).inNamespace(NS)
                .resource(Serialization.unmarshal(CAMPAIGN, GenericKubernetesResource.class)).create();
    }

    @AfterEach
    void close() {
        client.close();
        server.destroy();
    }

    record Run(int exit, String out, String err) {
    }

    Run kubectlBackfill(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = LaneMain.withFailureHandling(new CommandLine(new KubectlCommand(context -> server.createClient())));
        cli.setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
        int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void statusShowsPhaseProgressLanesReceiptsEventsAndTheNextAction() {
        lanePod(0, 1, new PodStatusBuilder().withPhase("Running").withContainerStatuses(new ContainerStatusBuilder().withName("lane")
                .withRestartCount(0).withState(new ContainerStateBuilder().withNewRunning().endRunning().build()).build()).build());
        lanePod(1, 1, new PodStatusBuilder().withPhase("Failed").withContainerStatuses(new ContainerStatusBuilder().withName("lane")
                .withRestartCount(0).withState(new ContainerStateBuilder().withNewTerminated().withReason("Error").withExitCode(1)
                        .endTerminated().build()).build()).build());
        lanePod(1, 2, new PodStatusBuilder().withPhase("Pending").withContainerStatuses(new ContainerStatusBuilder().withName("lane")
                .withRestartCount(0).withState(new ContainerStateBuilder().withNewWaiting().withReason("ImagePullBackOff")
                        .endWaiting().build()).build()).build());
        event("2026-12-01T10:00:02Z", "Normal", "Loading", "Prepared -> Loading");
        event("2026-12-01T10:03:40Z", "Warning", "LanePodReplaced", "lane pod orders-lane-1-1 failed (exit 1); replaced by orders-lane-1-2");
        event("2026-12-01T10:04:10Z", "Warning", "LanePodsStuck", "lane pods cannot start: orders-lane-1-2");
        event("2026-12-01T10:04:11Z", "Normal", "Other", "an event of another object", "someone-else");

        Run run = kubectlBackfill("status", "orders", "-n", NS);
        System.out.println("$ kubectl backfill status orders -n shop\n" + run.out());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("campaign     shop/orders  run key rk-f031fff10c7bcf05b88089c4")
                .contains("phase        Loading\n")
                .contains("Ready=False  Reconciling=True (Loading)  Stalled=False  Degraded=True (LanePodsStuck)")
                .contains("[############------------------]  41%  212/512 chunks committed (4 running, 295 pending, 1 failed)")
                .contains("205,112,003 loaded").contains("612,400.0 rows/s").contains("eta          8m12s")
                .contains("lanes        3 pods")
                .containsPattern("0 +1 +orders-lane-0-1 +0 +Running")
                .containsPattern("1 +1 +orders-lane-1-1 +0 +Terminated: Error \\(exit 1\\)")
                .containsPattern("1 +2 +orders-lane-1-2 +0 +Waiting: ImagePullBackOff")
                .contains("failed       1 chunk failed")
                .contains("shadow public.orders__bf_0784d619_shadow, backup public.orders__bf_0784d619_backup; validation pending; receipt none yet")
                .contains("handoff      XMin anchor 48213377; receipt none yet")
                .contains("events       last 3")
                .containsPattern("LanePodReplaced +lane pod orders-lane-1-1 failed")
                .doesNotContain("another object")
                .endsWith("next         none: lanes are loading chunks\n");
        assertThat(run.out().indexOf("Prepared -> Loading")).as("events oldest first").isLessThan(run.out().indexOf("LanePodsStuck  "));
    }

    @Test
    void aCampaignThatDoesNotExistIsOneLineAndExitOne() {
        Run run = kubectlBackfill("status", "nope", "-n", NS);
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err().strip()).isEqualTo("error: backfillcampaign shop/nope not found");
    }

    @Test
    void suspendAndResumePatchSpecSuspendOnceEach() throws Exception {
        Run suspend = kubectlBackfill("suspend", "orders", "-n", NS);
        assertThat(suspend.exit()).as(suspend.err()).isZero();
        assertMergePatch(server.getLastRequest(), "{\"spec\":{\"suspend\":true}}");
        assertThat(spec().get("suspend")).isEqualTo(true);
        assertThat(suspend.out()).contains("backfillcampaign shop/orders: suspended (spec.suspend=true)");

        Run again = kubectlBackfill("suspend", "orders", "-n", NS);
        assertThat(again.out()).contains("already suspended");
        assertThat(server.getLastRequest().getMethod()).as("re-applied: nothing patched").isEqualTo("GET");

        Run resume = kubectlBackfill("resume", "orders", "-n", NS);
        assertThat(resume.exit()).isZero();
        assertMergePatch(server.getLastRequest(), "{\"spec\":{\"suspend\":false}}");
        assertThat(spec().get("suspend")).isEqualTo(false);
        assertThat(kubectlBackfill("resume", "orders", "-n", NS).out()).contains("not suspended");
        assertThat(server.getLastRequest().getMethod()).isEqualTo("GET");
        assertThat(spec()).containsEntry("backfillId", "orders-initial").containsKey("chunk");
    }

    @Test
    void throttleSetsChangesAndRemovesSpecThrottleOnceEach() throws Exception {
        Run set = kubectlBackfill("throttle", "orders", "-n", NS, "--rows-per-second", "100000");
        assertThat(set.exit()).as(set.err()).isZero();
        assertMergePatch(server.getLastRequest(), "{\"spec\":{\"throttle\":{\"rowsPerSecond\":100000}}}");
        assertThat(spec().get("throttle")).isEqualTo(Map.of("rowsPerSecond", 100000));
        assertThat(set.out()).contains("backfillcampaign shop/orders: throttle set: 100000 rows/s (spec.throttle)");

        assertThat(kubectlBackfill("throttle", "orders", "-n", NS, "--rows-per-second", "100000").out()).contains("already set");
        assertThat(server.getLastRequest().getMethod()).as("re-applied: nothing patched").isEqualTo("GET");

        assertThat(kubectlBackfill("throttle", "orders", "-n", NS, "--bytes-per-second", "5000000").exit()).isZero();
        assertThat(spec().get("throttle")).as("a part not given keeps its value")
                .isEqualTo(Map.of("rowsPerSecond", 100000, "bytesPerSecond", 5000000));

        assertThat(kubectlBackfill("throttle", "orders", "-n", NS, "--lanes", "1").exit()).isZero();
        assertThat(spec().get("throttle")).isEqualTo(Map.of("rowsPerSecond", 100000, "bytesPerSecond", 5000000, "lanes", 1));

        assertThat(kubectlBackfill("throttle", "orders", "-n", NS, "--off").exit()).isZero();
        // RFC 7386: null removes the field on an API server; the mock's CRUD store keeps the key with a null value.
        @SuppressWarnings("unchecked")
        Map<String, Object> afterOff = (Map<String, Object>) spec().get("throttle");
        assertThat(afterOff.get("rowsPerSecond")).isNull();
        assertThat(afterOff.get("bytesPerSecond")).isNull();
        assertThat(afterOff).as("the lane count stays").containsEntry("lanes", 1);
        assertThat(spec()).containsEntry("backfillId", "orders-initial");
        assertThat(kubectlBackfill("throttle", "orders", "-n", NS, "--off").out()).contains("already set: no ceiling");
    }

    @Test
    void aBadCeilingIsRefusedNamingItsFieldBeforeTheClusterIsAsked() {
        int requests = server.getRequestCount();
        Run zero = kubectlBackfill("throttle", "orders", "-n", NS, "--rows-per-second", "0");
        Run both = kubectlBackfill("throttle", "orders", "-n", NS, "--off", "--bytes-per-second", "10");
        Run none = kubectlBackfill("throttle", "orders", "-n", NS);

        assertThat(zero.exit()).isEqualTo(2);
        assertThat(zero.err()).contains("spec.throttle.rowsPerSecond (--rows-per-second) must be between 1 and");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("--off removes the ceiling");
        assertThat(none.exit()).isEqualTo(2);
        assertThat(server.getRequestCount()).as("no request for a refused command").isEqualTo(requests);
    }

    @Test
    void statusOfAThrottledCampaignShowsTheConditionAndTheCeiling() {
        var campaign = client.genericKubernetesResources(Campaigns.CONTEXT).inNamespace(NS).withName("orders").get();
        @SuppressWarnings("unchecked")
        Map<String, Object> status = (Map<String, Object>) campaign.getAdditionalProperties().get("status");
        @SuppressWarnings("unchecked")
        java.util.List<Object> conditions = new java.util.ArrayList<>((java.util.List<Object>) status.get("conditions"));
        conditions.add(Map.of("type", "Throttled", "status", "True", "reason", "RateCeiling", "message",
                "the lanes read at the ceiling of 100000 rows/s shared by 2 lanes and wait for it between slices of rows"));
        status.put("conditions", conditions);
        status.put("throttle", Map.of("rowsPerSecond", 100000, "lanes", 2, "reason", "RateCeiling", "message",
                "the lanes read at the ceiling of 100000 rows/s shared by 2 lanes and wait for it between slices of rows"));
        client.genericKubernetesResources(Campaigns.CONTEXT).inNamespace(NS).resource(campaign).update();

        Run run = kubectlBackfill("status", "orders", "-n", NS);
        System.out.println("$ kubectl backfill status orders -n shop   # throttled\n" + run.out());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("Throttled=True (RateCeiling)")
                .contains("throttle     RateCeiling: the lanes read at the ceiling of 100000 rows/s shared by 2 lanes");
    }

    @Test
    void statusOfAReconciledCampaignShowsItsPassesQueueAndSyncAnchor() {
        var campaign = client.genericKubernetesResources(Campaigns.CONTEXT).inNamespace(NS).withName("orders").get();
        @SuppressWarnings("unchecked")
        Map<String, Object> status = (Map<String, Object>) campaign.getAdditionalProperties().get("status");
        // The section as the operator writes it: the model's own class, serialised as the status is.
        var r = new io.dpone.backfill.core.campaign.ReconciliationStatus();
        r.setMode("once");
        r.setPassCount(1);
        r.setUpserted(17L);
        r.setDeleted(3L);
        r.setQueuedByPasses(1L);
        r.getPasses().add(new io.dpone.backfill.core.campaign.ReconciliationStatus.Pass(1, "48213377", "48215002", true,
                17, 3, 1, false));
        r.setQueue(1L);
        r.getQueueSample().add("(42)");
        r.setSyncAnchor("48215002");
        r.setSyncAnchorFromPass(1);
        r.setCaughtUp(false);
        status.put("phase", "HandoffCommitted");
        status.put("reconciliation", Serialization.jsonMapper().convertValue(r, Map.class));
        status.put("handoff", Map.of("anchorXmin", "48215002", "receiptId", "h-1", "fromPass", 1));
        client.genericKubernetesResources(Campaigns.CONTEXT).inNamespace(NS).resource(campaign).update();

        Run run = kubectlBackfill("status", "orders", "-n", NS);
        System.out.println("$ kubectl backfill status orders -n shop   # reconciled\n" + run.out());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("handoff      XMin anchor 48215002 (reconciliation pass 1); receipt h-1")
                .contains("reconcile    1 pass(es) (once): 17 upserted, 3 deleted, 1 queued in all")
                .contains("  pass 1: anchor 48213377 -> 48215002, 17 upserted, 3 deleted, 1 queued, key digests differed (keys compared)")
                .contains("queue        1 key(s) waiting for a decision: (42)")
                .contains("sync anchor  48215002 (pass 1); not caught up");
    }

    @Test
    void requeueAndRollbackSetTheOperatorsActionAnnotationsOnceAToken() throws Exception {
        Run requeue = kubectlBackfill("requeue", "orders", "-n", NS, "--token", "1764583200");
        assertThat(requeue.exit()).as(requeue.err()).isZero();
        assertMergePatch(server.getLastRequest(), "{\"metadata\":{\"annotations\":{\"backfill.dpone.io/requeue-failed\":\"1764583200\"}}}");
        assertThat(kubectlBackfill("requeue", "orders", "-n", NS, "--token", "1764583200").out()).contains("already requested");
        assertThat(server.getLastRequest().getMethod()).isEqualTo("GET");

        Run rollback = kubectlBackfill("rollback", "orders", "-n", NS, "--reason", "wrong source snapshot");
        assertThat(rollback.exit()).as(rollback.err()).isZero();
        assertMergePatch(server.getLastRequest(), "{\"metadata\":{\"annotations\":{\"backfill.dpone.io/rollback\":\"wrong source snapshot\"}}}");
        assertThat(annotations()).containsEntry("backfill.dpone.io/requeue-failed", "1764583200")
                .containsEntry("backfill.dpone.io/rollback", "wrong source snapshot");

        Run noReason = kubectlBackfill("rollback", "orders", "-n", NS);
        assertThat(noReason.exit()).isNotZero();
        assertThat(noReason.err()).contains("--reason");
    }

    @Test
    void requeueWithoutATokenUsesTheCurrentEpochSecond() throws Exception {
        long before = java.time.Instant.now().getEpochSecond();
        assertThat(kubectlBackfill("requeue", "orders", "-n", NS).exit()).isZero();
        long token = Long.parseLong(annotations().get("backfill.dpone.io/requeue-failed"));
        assertThat(token).isBetween(before, java.time.Instant.now().getEpochSecond());
    }

    @Test
    void planValidatesAManifestWithoutTheCluster() throws Exception {
        int requests = server.getRequestCount();
        Run plan = kubectlBackfill("plan", "-f", RepositoryRoot.resolve("examples", "pg-to-pg-events.yaml").toString());
        assertThat(plan.exit()).as(plan.err()).isZero();
        assertThat(plan.out()).startsWith("plan events-initial: ").contains("run key rk-");
        assertThat(server.getRequestCount()).isEqualTo(requests);
    }

    /** The recorder's body buffer is consumed by the CRUD dispatcher: the body is checked as the resource it made. */
    private static void assertMergePatch(RecordedRequest request, String body) {
        assertThat(request.getMethod()).isEqualTo("PATCH");
        assertThat(request.getPath()).as("the resource, never its status").isEqualTo("/apis/backfill.dpone.io/v1alpha1/namespaces/shop/backfillcampaigns/orders");
        assertThat(request.getHeader("Content-Type")).startsWith("application/merge-patch+json");
        assertThat(body).isNotBlank();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> spec() {
        return (Map<String, Object>) client.genericKubernetesResources(Campaigns.CONTEXT).inNamespace(NS).withName("orders").get()
                .getAdditionalProperties().get("spec");
    }

    private Map<String, String> annotations() {
        return client.genericKubernetesResources(Campaigns.CONTEXT).inNamespace(NS).withName("orders").get().getMetadata().getAnnotations();
    }

    private void lanePod(int lane, int attempt, PodStatus status) {
        Pod pod = new PodBuilder().withNewMetadata().withName("orders-lane-" + lane + "-" + attempt).withNamespace(NS)
                .withLabels(Map.of(LaneState.MANAGED_BY, LaneState.MANAGED_BY_VALUE, "app.kubernetes.io/name", "backfill-lane",
                        LaneState.CAMPAIGN, "orders", LaneState.LANE, Integer.toString(lane), LaneState.ATTEMPT, Integer.toString(attempt)))
                .endMetadata().withNewSpec().addNewContainer().withName("lane").withImage("ghcr.io/dpone/backfill-lane:0.1.0").endContainer()
                .endSpec().build();
        Pod created = client.pods().inNamespace(NS).resource(pod).create();
        created.setStatus(status);
        client.pods().inNamespace(NS).resource(created).updateStatus();
    }

    private void event(String at, String type, String reason, String message) {
        event(at, type, reason, message, "orders");
    }

    private void event(String at, String type, String reason, String message, String object) {
        client.v1().events().inNamespace(NS).resource(new EventBuilder().withNewMetadata().withName(object + "." + reason + at.hashCode())
                .withNamespace(NS).endMetadata().withNewInvolvedObject().withApiVersion("backfill.dpone.io/v1alpha1")
                .withKind(object.equals("orders") ? "BackfillCampaign" : "Pod").withName(object).withNamespace(NS).endInvolvedObject()
                .withType(type).withReason(reason).withMessage(message).withFirstTimestamp(at).withLastTimestamp(at).build()).create();
    }
}
