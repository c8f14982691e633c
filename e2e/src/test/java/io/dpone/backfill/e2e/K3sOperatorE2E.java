package io.dpone.backfill.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.LocalPortForward;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The whole Kubernetes flow on a real cluster (k3s in Docker): both images built from the Dockerfiles and loaded
 * into k3s, the chart installed, a PostgreSQL in the cluster, a PostgreSQL-to-PostgreSQL campaign applied and
 * awaited to {@code Ready}, one lane pod force-deleted mid-load, and the published table checked row for row; then
 * what only a real cluster shows: CEL admission of a corrected campaign, a ResourceQuota's 403, a leader restart and
 * a node drain.
 * Skipped where Docker is absent (this machine and CI): {@code disabledWithoutDocker} reports it as skipped.
 */
@Testcontainers(disabledWithoutDocker = true)
@SuppressWarnings("unchecked")
class K3sOperatorE2E {
    private static final String K3S_IMAGE = "rancher/k3s:v1.31.4-k3s1";
    private static final String POSTGRES_IMAGE = "postgres:17.5-alpine";
    private static final String OPERATOR_IMAGE = "backfill-operator:e2e";
    private static final String LANE_IMAGE = "backfill-lane:e2e";
    private static final String NS = "e2e";
    private static final String CAMPAIGN = "events-initial";
    private static final long ROWS = 2_000_000;
    private static final Path REPO = BackfillProcess.REPO;
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Container
    static final K3sContainer K3S = new K3sContainer(DockerImageName.parse(K3S_IMAGE));

    static KubernetesClient client;

    @BeforeAll
    static void clusterWithOperatorAndDatabase() throws Exception {
        Path quarkusApp = REPO.resolve("operator/controller/target/quarkus-app");
        assumeTrue(Files.isRegularFile(quarkusApp.resolve("quarkus-run.jar")) && Files.isRegularFile(REPO.resolve("lane-worker/worker/target/backfill-lane.jar")),
                "the operator and the lane jar are not packaged (run through the reactor: ./mvnw -pl e2e -am verify)");
        loadIntoK3s(new ImageFromDockerfile(OPERATOR_IMAGE, false)
                .withFileFromPath("operator/controller/target/quarkus-app", quarkusApp)
                .withFileFromPath("Dockerfile", REPO.resolve("operator/controller/src/main/docker/Dockerfile.jvm"))
                .withDockerfilePath("Dockerfile").get());
        loadIntoK3s(new ImageFromDockerfile(LANE_IMAGE, false)
                .withFileFromPath("lane-worker/worker/target/backfill-lane.jar", REPO.resolve("lane-worker/worker/target/backfill-lane.jar"))
                .withFileFromPath("Dockerfile", REPO.resolve("operator/controller/src/main/docker/Dockerfile.lane"))
                .withDockerfilePath("Dockerfile").get());

        String kubeconfig = K3S.getKubeConfigYaml();
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kubeconfig)).build();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
        startPostgres();

        // Short leases so the killed lane's chunk is claimed again within seconds rather than 90 s.
        new Helm(REPO.resolve("helm/backfill-operator")).install().withName("backfill").withNamespace("backfill-system")
                .createNamespace().withKubeConfigContents(kubeconfig)
                .set("image.repository", "backfill-operator").set("image.tag", "e2e").set("image.pullPolicy", "Never")
                .set("lane.image", LANE_IMAGE).set("lane.imagePullPolicy", "Never")
                .set("lane.resources.requests.cpu", "100m").set("lane.resources.requests.memory", "256Mi")
                .set("lane.resources.limits.cpu", "1").set("lane.resources.limits.memory", "512Mi")
                .set("resources.requests.cpu", "100m")
                .set("watchNamespaces[0]", NS)
                .set("timings.leaseTtlSeconds", "20").set("timings.leaseRenewSeconds", "5")
                .waitReady().withTimeout(300).call();
    }

    @AfterAll
    static void close() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void aCampaignSurvivesAKilledLaneAndPublishesEveryRowOnce() throws Exception {
        ObjectNode campaign = (ObjectNode) YAML.readTree(REPO.resolve("examples/pg-to-pg-events.yaml").toFile());
        ((ObjectNode) campaign.path("metadata")).put("namespace", NS);
        ObjectNode spec = (ObjectNode) campaign.path("spec");
        ((ObjectNode) spec.path("chunk")).put("buckets", 64).put("lowerBound", 1).put("upperBound", ROWS);
        spec.put("parallelWorkers", 2);
        client.resource(YAML.convertValue(campaign, GenericKubernetesResource.class)).inNamespace(NS).create();

        // Mid-load: some chunks committed, many left. Kill one running lane pod outright (no grace).
        Pod victim = await(Duration.ofMinutes(5), "a lane pod loading with chunks committed and chunks left", () -> {
            Map<String, Object> progress = progress();
            long committed = number(progress.get("committedChunks"));
            long total = number(progress.get("totalChunks"));
            assertThat(phase()).as("loading finished before a lane could be killed: grow ROWS").isIn(null, "Planned", "Prepared", "Loading");
            if (committed == 0 || committed > total - 16) {
                return Optional.empty();
            }
            return lanePods().stream().filter(p -> "Running".equals(p.getStatus().getPhase())).findFirst();
        });
        String lane = victim.getMetadata().getLabels().get("backfill.dpone.io/lane");
        client.pods().inNamespace(NS).withName(victim.getMetadata().getName()).withGracePeriod(0).delete();
        // A force-deleted pod leaves the API at once and never reaches phase Failed (no kubelet ever reports its end),
        // so there is no LanePodReplaced: the operator sees the lane missing and starts a new pod for it (a new UID),
        // and nothing is counted against the failure budget. The killed lane's chunk goes to the next claim.
        await(Duration.ofMinutes(2), "a new pod for lane " + lane, () -> lanePods().stream()
                .filter(p -> lane.equals(p.getMetadata().getLabels().get("backfill.dpone.io/lane")))
                .filter(p -> !victim.getMetadata().getUid().equals(p.getMetadata().getUid())).findFirst());

        // kubectl wait --for=condition=Ready bfc/events-initial
        await(Duration.ofMinutes(10), "condition Ready=True", () -> {
            assertThat(phase()).as("the campaign must not give up").isNotIn("Blocked", "Recoverable", "Invalid");
            return condition("Ready").filter("True"::equals);
        });
        assertThat(phase()).isEqualTo("HandoffCommitted");

        // The published table has exactly the source's rows: none lost with the killed lane, none loaded twice.
        Pod pg = client.pods().inNamespace(NS).withName("pg").get();
        try (LocalPortForward forward = client.pods().inNamespace(NS).withName(pg.getMetadata().getName()).portForward(5432)) {
            String base = "jdbc:postgresql://127.0.0.1:" + forward.getLocalPort() + "/";
            long[] source = countAndSum(base + "app", "public.events");
            long[] published = countAndSum(base + "warehouse", "analytics.events");
            assertThat(source[0]).isEqualTo(ROWS);
            assertThat(published).containsExactly(source);
        }
    }

    /**
     * What only a real API server and admission show (ADR 0030): a refused campaign is corrected in place (the
     * CRD's plan rule admits the edit because nothing is planned), a plan change of a planned campaign is refused
     * with 422, and a lane pod a ResourceQuota refuses (403) is reported as {@code LanePodRejected} and loads once
     * the quota allows it.
     */
    @Test
    void aRefusedCampaignIsCorrectedInPlaceAndAQuotaRefusalIsReportedUntilTheQuotaAllowsTheLanes() throws Exception {
        String name = "events-b";
        client.resource(new io.fabric8.kubernetes.api.model.ResourceQuotaBuilder().withNewMetadata().withName("lanes").endMetadata()
                .withNewSpec().addToHard("limits.memory", new io.fabric8.kubernetes.api.model.Quantity("256Mi")).endSpec().build())
                .inNamespace(NS).create();
        try {
            ObjectNode campaign = campaignFor(name, "events_b", "events_b_v1");
            ((ObjectNode) campaign.path("spec")).put("onlyNewRows", true);
            client.resource(YAML.convertValue(campaign, GenericKubernetesResource.class)).inNamespace(NS).create();
            await(Duration.ofMinutes(2), "phase Invalid", () -> Optional.ofNullable(phase(name)).filter("Invalid"::equals));

            // The fix a GitOps tool would sync: admitted by the real API server's CEL (nothing planned yet).
            campaign(name).edit(c -> {
                ((Map<String, Object>) c.getAdditionalProperties().get("spec")).put("onlyNewRows", false);
                return c;
            });
            await(Duration.ofMinutes(3), "LanePodRejected (the quota refuses lane pods with limits.memory 512Mi)",
                    () -> conditionReason(name, "Degraded").filter("LanePodRejected"::equals));
            assertThat(conditionMessage(name, "Degraded")).contains("exceeded quota");
            assertThat(events(name)).contains("LanePodRejected").doesNotContain("EngineError");

            // Planned now: a plan change is refused by the API server itself.
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> campaign(name).edit(c -> {
                ((Map<String, Object>) ((Map<String, Object>) c.getAdditionalProperties().get("spec")).get("chunk")).put("buckets", 32);
                return c;
            })).isInstanceOfSatisfying(io.fabric8.kubernetes.client.KubernetesClientException.class,
                    e -> assertThat(e.getCode()).isEqualTo(422));
        } finally {
            client.resourceQuotas().inNamespace(NS).withName("lanes").delete();
        }
        await(Duration.ofMinutes(10), "Ready=True once the quota is gone", () -> condition(name, "Ready").filter("True"::equals));
    }

    /**
     * The operator pod is deleted mid-load: the Deployment's new pod takes the leader Lease over (renewing it with
     * PATCH, which the chart's Role must allow) and the campaign completes. Then the lane's node is drained: the
     * Eviction API evicts the lane pods (DisruptionTarget), they are replaced without spending the budget
     * ({@code LanePodDisrupted}) and, once the node is schedulable again, the load completes.
     */
    @Test
    void aLeaderRestartAndANodeDrainDoNotStopACampaign() throws Exception {
        String name = "events-c";
        ObjectNode campaign = campaignFor(name, "events_c", "events_c_v1");
        ((ObjectNode) campaign.path("spec")).putObject("lane").put("maxPodFailures", 0);
        client.resource(YAML.convertValue(campaign, GenericKubernetesResource.class)).inNamespace(NS).create();
        await(Duration.ofMinutes(5), "phase Loading", () -> Optional.ofNullable(phase(name)).filter("Loading"::equals));

        String holder = leaseHolder();
        client.pods().inNamespace("backfill-system").list().getItems().forEach(p ->
                client.pods().inNamespace("backfill-system").withName(p.getMetadata().getName()).delete());
        await(Duration.ofMinutes(3), "a new leader", () -> Optional.ofNullable(leaseHolder()).filter(h -> !h.equals(holder)));

        Pod lane = await(Duration.ofMinutes(2), "a running lane pod", () -> lanePods(name).stream()
                .filter(p -> "Running".equals(p.getStatus().getPhase())).findFirst());
        String node = lane.getSpec().getNodeName();
        client.nodes().withName(node).edit(n -> {
            n.getSpec().setUnschedulable(true); // kubectl cordon
            return n;
        });
        try {
            for (Pod p : lanePods(name)) {
                if ("Running".equals(p.getStatus().getPhase())) {
                    client.pods().inNamespace(NS).withName(p.getMetadata().getName()).evict(); // what kubectl drain calls
                }
            }
            await(Duration.ofMinutes(2), "LanePodDisrupted", () -> events(name).contains("LanePodDisrupted") ? Optional.of(true) : Optional.empty());
            assertThat(phase(name)).as("a drain is not a lane failure (budget 0)").isNotEqualTo("Recoverable");
        } finally {
            client.nodes().withName(node).edit(n -> {
                n.getSpec().setUnschedulable(false);
                return n;
            });
        }
        await(Duration.ofMinutes(10), "Ready=True", () -> {
            assertThat(phase(name)).isNotIn("Blocked", "Recoverable", "Invalid");
            return condition(name, "Ready").filter("True"::equals);
        });
    }

    private static ObjectNode campaignFor(String name, String table, String backfillId) throws Exception {
        ObjectNode campaign = (ObjectNode) YAML.readTree(REPO.resolve("examples/pg-to-pg-events.yaml").toFile());
        ((ObjectNode) campaign.path("metadata")).put("namespace", NS).put("name", name);
        ObjectNode spec = (ObjectNode) campaign.path("spec");
        spec.put("backfillId", backfillId);
        ((ObjectNode) spec.path("target")).put("table", table);
        ((ObjectNode) spec.path("chunk")).put("buckets", 64).put("lowerBound", 1).put("upperBound", ROWS);
        spec.put("parallelWorkers", 2);
        return campaign;
    }

    private static String leaseHolder() {
        return client.leases().inNamespace("backfill-system").list().getItems().stream()
                .map(l -> l.getSpec().getHolderIdentity()).filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    private static void loadIntoK3s(String image) throws Exception {
        Path tar = Files.createTempFile("image", ".tar");
        try (InputStream saved = DockerClientFactory.instance().client().saveImageCmd(image).exec()) {
            Files.copy(saved, tar, StandardCopyOption.REPLACE_EXISTING);
        }
        K3S.copyFileToContainer(MountableFile.forHostPath(tar), "/tmp/image.tar");
        var imported = K3S.execInContainer("ctr", "-n", "k8s.io", "images", "import", "/tmp/image.tar");
        assertThat(imported.getExitCode()).as(imported.getStderr()).isZero();
        Files.delete(tar);
    }

    /** One PostgreSQL with the source database (generated rows) and the target database (the reviewed, empty table). */
    private static void startPostgres() throws Exception {
        String init = """
                CREATE DATABASE app;
                CREATE DATABASE warehouse;
                \\connect app
                CREATE TABLE public.events (event_id bigint NOT NULL PRIMARY KEY, kind text NOT NULL, payload text);
                INSERT INTO public.events SELECT g, 'k' || (g % 7), md5(g::text) FROM generate_series(1, %d) g;
                \\connect warehouse
                CREATE SCHEMA analytics;
                CREATE TABLE analytics.events (event_id bigint NOT NULL PRIMARY KEY, kind text NOT NULL, payload text);
                CREATE TABLE analytics.events_b (event_id bigint NOT NULL PRIMARY KEY, kind text NOT NULL, payload text);
                CREATE TABLE analytics.events_c (event_id bigint NOT NULL PRIMARY KEY, kind text NOT NULL, payload text);
                """.formatted(ROWS);
        client.configMaps().inNamespace(NS).resource(new ConfigMapBuilder().withNewMetadata().withName("pg-init").endMetadata()
                .withData(Map.of("init.sql", init)).build()).create();
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("pg").withLabels(Map.of("app", "pg")).endMetadata()
                .withNewSpec().addNewContainer().withName("pg").withImage(POSTGRES_IMAGE)
                .addNewEnv().withName("POSTGRES_PASSWORD").withValue("e2e-only").endEnv()
                .addNewPort().withContainerPort(5432).endPort()
                .addNewVolumeMount().withName("init").withMountPath("/docker-entrypoint-initdb.d").endVolumeMount()
                .withNewReadinessProbe().withNewExec().withCommand("pg_isready", "-h", "127.0.0.1", "-U", "postgres", "-d", "warehouse").endExec()
                .withPeriodSeconds(2).endReadinessProbe()
                .endContainer()
                .addNewVolume().withName("init").withNewConfigMap().withName("pg-init").endConfigMap().endVolume()
                .endSpec().build()).create();
        client.services().inNamespace(NS).resource(new ServiceBuilder().withNewMetadata().withName("pg").endMetadata()
                .withNewSpec().withSelector(Map.of("app", "pg")).addNewPort().withPort(5432).withTargetPort(new IntOrString(5432)).endPort()
                .endSpec().build()).create();
        // Ready over TCP only once the init scripts ran (the entrypoint's temporary server listens on a socket only).
        client.pods().inNamespace(NS).withName("pg").waitUntilReady(5, java.util.concurrent.TimeUnit.MINUTES);
        for (String[] s : List.of(new String[]{"app-postgres", "app"}, new String[]{"warehouse-postgres", "warehouse"})) {
            client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName(s[0])
                    .addToLabels("backfill.dpone.io/campaign-use", "true").endMetadata()
                    .withStringData(Map.of("jdbcUrl", "jdbc:postgresql://pg." + NS + ".svc.cluster.local:5432/" + s[1],
                            "user", "postgres", "password", "e2e-only")).build()).create();
        }
    }

    private static Resource<GenericKubernetesResource> campaign() {
        return campaign(CAMPAIGN);
    }

    private static Resource<GenericKubernetesResource> campaign(String name) {
        return client.genericKubernetesResources("backfill.dpone.io/v1alpha1", "BackfillCampaign").inNamespace(NS).withName(name);
    }

    private static Map<String, Object> status() {
        return status(CAMPAIGN);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> status(String name) {
        GenericKubernetesResource c = campaign(name).get();
        Object status = c == null ? null : c.getAdditionalProperties().get("status");
        return status == null ? Map.of() : (Map<String, Object>) status;
    }

    private static String phase() {
        return phase(CAMPAIGN);
    }

    private static String phase(String name) {
        return (String) status(name).get("phase");
    }

    @SuppressWarnings("unchecked")
    private static Optional<Map<String, Object>> conditionOf(String name, String type) {
        Object conditions = status(name).get("conditions");
        return conditions == null ? Optional.empty()
                : ((List<Map<String, Object>>) conditions).stream().filter(c -> type.equals(c.get("type"))).findFirst();
    }

    private static Optional<String> condition(String name, String type) {
        return conditionOf(name, type).map(c -> (String) c.get("status"));
    }

    private static Optional<String> conditionReason(String name, String type) {
        return conditionOf(name, type).filter(c -> "True".equals(c.get("status"))).map(c -> (String) c.get("reason"));
    }

    private static String conditionMessage(String name, String type) {
        return conditionOf(name, type).map(c -> String.valueOf(c.get("message"))).orElse("");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> progress() {
        Object p = status().get("progress");
        return p == null ? Map.of() : (Map<String, Object>) p;
    }

    @SuppressWarnings("unchecked")
    private static Optional<String> condition(String type) {
        Object conditions = status().get("conditions");
        if (conditions == null) {
            return Optional.empty();
        }
        return ((List<Map<String, Object>>) conditions).stream().filter(c -> type.equals(c.get("type")))
                .map(c -> (String) c.get("status")).findFirst();
    }

    private static List<Pod> lanePods() {
        return lanePods(CAMPAIGN);
    }

    private static List<Pod> lanePods(String name) {
        return client.pods().inNamespace(NS).withLabel("backfill.dpone.io/campaign", name).list().getItems();
    }

    private static List<String> events(String name) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName())).map(e -> e.getReason()).toList();
    }

    private static long number(Object o) {
        return o instanceof Number n ? n.longValue() : 0;
    }

    private static long[] countAndSum(String url, String table) throws Exception {
        try (Connection c = DriverManager.getConnection(url, "postgres", "e2e-only"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT event_id), coalesce(sum(event_id), 0) FROM " + table)) {
            rs.next();
            return new long[]{rs.getLong(1), rs.getLong(2), rs.getLong(3)};
        }
    }

    private static <T> T await(Duration timeout, String what, Supplier<Optional<T>> probe) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            Optional<T> value = probe.get();
            if (value.isPresent()) {
                return value.get();
            }
            Thread.sleep(500);
        }
        throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; status: " + status());
    }
}
