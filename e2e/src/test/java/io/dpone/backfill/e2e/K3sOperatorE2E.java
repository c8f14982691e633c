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
 * awaited to {@code Ready}, one lane pod killed mid-load, and the published table checked row for row.
 * Skipped where Docker is absent (this machine and CI): {@code disabledWithoutDocker} reports it as skipped.
 */
@Testcontainers(disabledWithoutDocker = true)
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
        Path quarkusApp = REPO.resolve("operator/target/quarkus-app");
        assumeTrue(Files.isRegularFile(quarkusApp.resolve("quarkus-run.jar")) && Files.isRegularFile(BackfillProcess.JAR),
                "the operator and lane-worker are not packaged (run through the reactor: ./mvnw -pl e2e -am verify)");
        loadIntoK3s(new ImageFromDockerfile(OPERATOR_IMAGE, false)
                .withFileFromPath("operator/target/quarkus-app", quarkusApp)
                .withFileFromPath("Dockerfile", REPO.resolve("operator/src/main/docker/Dockerfile.jvm"))
                .withDockerfilePath("Dockerfile").get());
        loadIntoK3s(new ImageFromDockerfile(LANE_IMAGE, false)
                .withFileFromPath("lane-worker/target/backfill.jar", BackfillProcess.JAR)
                .withFileFromPath("Dockerfile", REPO.resolve("operator/src/main/docker/Dockerfile.lane"))
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
        client.pods().inNamespace(NS).withName(victim.getMetadata().getName()).withGracePeriod(0).delete();

        // kubectl wait --for=condition=Ready bfc/events-initial
        await(Duration.ofMinutes(10), "condition Ready=True", () -> {
            assertThat(phase()).as("the campaign must not give up").isNotIn("Blocked", "Recoverable", "Invalid");
            return condition("Ready").filter("True"::equals);
        });
        assertThat(phase()).isEqualTo("HandoffCommitted");
        assertThat(events()).contains("LanePodReplaced");

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
            client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName(s[0]).endMetadata()
                    .withStringData(Map.of("jdbcUrl", "jdbc:postgresql://pg." + NS + ".svc.cluster.local:5432/" + s[1],
                            "user", "postgres", "password", "e2e-only")).build()).create();
        }
    }

    private static Resource<GenericKubernetesResource> campaign() {
        return client.genericKubernetesResources("backfill.dpone.io/v1alpha1", "BackfillCampaign").inNamespace(NS).withName(CAMPAIGN);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> status() {
        GenericKubernetesResource c = campaign().get();
        Object status = c == null ? null : c.getAdditionalProperties().get("status");
        return status == null ? Map.of() : (Map<String, Object>) status;
    }

    private static String phase() {
        return (String) status().get("phase");
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
        return client.pods().inNamespace(NS).withLabel("backfill.dpone.io/campaign", CAMPAIGN).list().getItems();
    }

    private static List<String> events() {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> CAMPAIGN.equals(e.getInvolvedObject().getName())).map(e -> e.getReason()).toList();
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
