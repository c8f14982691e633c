package io.dpone.backfill.crds;

import io.dpone.backfill.testsupport.RepositoryRoot;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The committed CRD (here, and in the Helm chart) is exactly the one the operator's build generates from the Java
 * model, with the model's field rules written in ({@link FieldRules}) and the printer columns in display order
 * ({@link PrinterColumnOrder}). Run with {@code -Dcrds.update=true}
 * to write it over both after a model change, then review the diff.
 */
class CommittedCrdTest {
    static final String FILE = "backfillcampaigns.backfill.dpone.io-v1.yml";
    static final Path GENERATED = RepositoryRoot.resolve("operator", "controller", "target", "kubernetes", FILE);
    static final Path COMMITTED = Path.of(FILE);
    static final Path CHART = RepositoryRoot.resolve("helm", "backfill-operator", "crds", FILE);

    private static JsonNode version;

    @BeforeAll
    static void generatedExists() throws IOException {
        assertThat(GENERATED).as("the operator's build generates the CRD: run the reactor (./mvnw -pl crds -am verify)").isRegularFile();
        if (Boolean.getBoolean("crds.update")) {
            Files.writeString(COMMITTED, expected());
            Files.createDirectories(CHART.getParent());
            Files.copy(COMMITTED, CHART, StandardCopyOption.REPLACE_EXISTING);
        }
        version = new ObjectMapper(new YAMLFactory()).readTree(COMMITTED.toFile()).path("spec").path("versions").get(0);
    }

    private static String expected() throws IOException {
        return PrinterColumnOrder.apply(FieldRules.apply(Files.readString(GENERATED)));
    }

    @Test
    void committedCrdIsTheGeneratedOne() throws IOException {
        assertThat(Files.readString(COMMITTED)).as(COMMITTED + " differs from the generated " + GENERATED
                + ": regenerate with -Dcrds.update=true and review the diff").isEqualTo(expected());
    }

    @Test
    void chartCarriesTheSameCrd() throws IOException {
        assertThat(Files.readString(CHART)).as(CHART + " differs from " + COMMITTED).isEqualTo(Files.readString(COMMITTED));
    }

    @Test
    void schemaCarriesBoundsEnumsAndTheImmutabilityRule() {
        JsonNode spec = version.path("schema").path("openAPIV3Schema").path("properties").path("spec");
        JsonNode p = spec.path("properties");
        assertThat(p.path("parallelWorkers").path("maximum").asInt()).isEqualTo(64);
        assertThat(p.path("parallelWorkers").path("minimum").asInt()).isEqualTo(1);
        assertThat(p.path("chunk").path("properties").path("buckets").path("maximum").asInt()).isEqualTo(16384);
        assertThat(p.path("uniqueKey").path("maxItems").asInt()).isEqualTo(16);
        assertThat(p.path("target").path("properties").path("table").path("maxLength").asInt()).isEqualTo(128);
        assertThat(texts(p.path("target").path("properties").path("type").path("enum"))).containsExactlyInAnyOrder("mssql", "postgres");
        assertThat(texts(p.path("publication").path("properties").path("mode").path("enum"))).contains("direct", "shadow_swap");
        assertThat(p.path("backfillId").path("pattern").asText()).isNotEmpty();
        // The plan rule is on the root, where it can see the status (ADR 0030); the operator's tests evaluate it.
        assertThat(spec.has("x-kubernetes-validations")).isFalse();
        JsonNode rule = version.path("schema").path("openAPIV3Schema").path("x-kubernetes-validations").get(1);
        assertThat(rule.path("rule").asText()).contains("oldSelf.status.runKey").contains("oldSelf.spec.backfillId")
                .contains("oldSelf.spec.chunk").doesNotContain("suspend").doesNotContain("spec.lane");
        assertThat(rule.path("message").asText()).contains("new backfillId");
        assertThat(texts(spec.path("required"))).contains("backfillId", "source", "target", "uniqueKey", "chunk");
    }

    @Test
    void printerColumnsStatusSubresourceAndShortName() throws IOException {
        List<String> columns = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        version.path("additionalPrinterColumns").forEach(c -> {
            columns.add(c.path("name").asText());
            paths.add(c.path("jsonPath").asText());
        });
        assertThat(columns).as("kubectl get bfc shows them in this order").containsExactly("Phase", "Chunks", "Rows", "Rate", "ETA", "Ready", "Reason", "Group", "Passes", "Queued", "Age");
        assertThat(paths).containsExactly(".status.phase", ".status.progress.chunks", ".status.progress.rowsLoaded",
                ".status.progress.rowsPerSecond", ".status.progress.eta", ".status.conditions[?(@.type==\"Ready\")].status",
                ".status.conditions[?(@.type==\"Reconciling\")].reason", ".spec.publication.group.name",
                ".status.reconciliation.passCount", ".status.reconciliation.queue", ".metadata.creationTimestamp");
        JsonNode progress = version.path("schema").path("openAPIV3Schema").path("properties").path("status").path("properties")
                .path("progress").path("properties");
        assertThat(progress.path("chunks").path("type").asText()).isEqualTo("string");
        assertThat(progress.path("eta").path("type").asText()).isEqualTo("string");
        assertThat(version.path("subresources").has("status")).isTrue();
        JsonNode root = new ObjectMapper(new YAMLFactory()).readTree(COMMITTED.toFile());
        assertThat(texts(root.path("spec").path("names").path("shortNames"))).containsExactly("bfc");
        assertThat(version.path("schema").path("openAPIV3Schema").path("x-kubernetes-validations").get(0).path("rule").asText())
                .isEqualTo("self.metadata.name.size() <= 45 && self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')");
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
