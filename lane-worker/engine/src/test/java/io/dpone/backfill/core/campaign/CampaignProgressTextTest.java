package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CampaignProgressTextTest {
    @Test
    void etaReadsAsAHumanDuration() {
        assertThat(EtaText.of(null)).isNull();
        assertThat(EtaText.of(0L)).isEqualTo("0s");
        assertThat(EtaText.of(45L)).isEqualTo("45s");
        assertThat(EtaText.of(492L)).isEqualTo("8m12s");
        assertThat(EtaText.of(7_500L)).isEqualTo("2h05m");
        assertThat(EtaText.of(273_600L)).isEqualTo("3d04h");
    }

    @Test
    void chunksAndEtaAreWrittenForPrinterColumnsAndIgnoredOnRead() throws Exception {
        CampaignProgress p = new CampaignProgress();
        p.setCommittedChunks(12);
        p.setTotalChunks(64);
        p.setEtaSeconds(492L);
        ObjectMapper json = new ObjectMapper();
        JsonNode written = json.valueToTree(p);
        assertThat(written.path("chunks").asText()).isEqualTo("12/64");
        assertThat(written.path("eta").asText()).isEqualTo("8m12s");

        CampaignProgress read = json.treeToValue(written, CampaignProgress.class);
        assertThat(read).isEqualTo(p);
        assertThat(read.getChunks()).isEqualTo("12/64");
    }
}
