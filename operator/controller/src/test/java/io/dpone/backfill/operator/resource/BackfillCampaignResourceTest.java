package io.dpone.backfill.operator.resource;

import io.dpone.backfill.testsupport.RepositoryRoot;
import io.dpone.backfill.core.campaign.CampaignDocument;
import io.dpone.backfill.core.campaign.SpecDefaults;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The custom resource is the campaign file: Fabric8 reads the shipped examples into core's own spec class. */
class BackfillCampaignResourceTest {

    private static Path example(String name) {
        return RepositoryRoot.resolve("examples", name);
    }

    @Test
    void resourceCoordinatesMatchTheCampaignFileFormat() {
        assertThat(HasMetadata.getApiVersion(BackfillCampaign.class)).isEqualTo(CampaignDocument.API_VERSION);
        assertThat(HasMetadata.getKind(BackfillCampaign.class)).isEqualTo(CampaignDocument.KIND);
        assertThat(HasMetadata.getPlural(BackfillCampaign.class)).isEqualTo("backfillcampaigns");
        assertThat(new BackfillCampaign().getFullResourceName()).isEqualTo("backfillcampaigns.backfill.dpone.io");
    }

    @Test
    void fabric8ReadsEveryExampleIntoTheCoreSpecUnchanged() throws IOException {
        for (String name : new String[]{"pg-to-mssql-orders.yaml", "pg-to-pg-events.yaml"}) {
            String yaml = Files.readString(example(name));
            BackfillCampaign resource = Serialization.unmarshal(yaml, BackfillCampaign.class);
            var fromCli = CampaignReader.read(example(name));
            assertThat(resource.getMetadata().getName()).as(name).isEqualTo(fromCli.name());
            assertThat(SpecDefaults.apply(resource.getSpec())).as(name).isEqualTo(fromCli.spec());
        }
    }

    @Test
    void specSurvivesARoundTripThroughTheKubernetesSerializer() throws IOException {
        BackfillCampaign resource = Serialization.unmarshal(Files.readString(example("pg-to-mssql-orders.yaml")), BackfillCampaign.class);
        BackfillCampaign again = Serialization.unmarshal(Serialization.asYaml(resource), BackfillCampaign.class);
        assertThat(again.getSpec()).isEqualTo(resource.getSpec());
    }
}
