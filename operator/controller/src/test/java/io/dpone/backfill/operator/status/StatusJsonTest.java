package io.dpone.backfill.operator.status;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignCondition;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StatusJsonTest {
    @Test
    void everyTextOfTheStatusIsScrubbedNotOnlyTheFieldsKnownToCarryMessages() {
        BackfillCampaignStatus status = new BackfillCampaignStatus();
        status.setRecommendedAction("check the database connection: cannot connect to jdbc:postgresql://loader:Sj1-Pa55@h/db");
        status.setRunKey("run-password=Sj2-Pa55");
        status.setConditions(List.of(new CampaignCondition("Degraded", "True", "DatabaseUnavailable",
                "Unable to parse URL jdbc:postgresql://h/db?password=Sj3-Pa55%zz", "2026-01-01T00:00:00Z", 1L)));

        BackfillCampaignStatus scrubbed = StatusJson.scrubbed(status);

        assertThat(StatusJson.write(scrubbed)).doesNotContain("Sj1").doesNotContain("Sj2").doesNotContain("Sj3")
                .contains("loader:***@h/db").contains("DatabaseUnavailable");
        assertThat(scrubbed.getConditions().get(0).getLastTransitionTime()).isEqualTo("2026-01-01T00:00:00Z");
    }

    @Test
    void scrubbingTwiceChangesNothingSoAWrittenStatusEqualsTheNextPasssAndIsNotPatchedAgain() {
        BackfillCampaignStatus status = new BackfillCampaignStatus();
        status.setRecommendedAction("jdbc:sqlserver://h;user=u;password={Sj4;Pa55}");

        BackfillCampaignStatus once = StatusJson.scrubbed(status);

        assertThat(StatusJson.scrubbed(once)).isEqualTo(once);
    }
}
