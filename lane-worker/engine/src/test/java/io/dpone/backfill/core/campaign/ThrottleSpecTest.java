package io.dpone.backfill.core.campaign;

import io.dpone.backfill.core.ledger.ThrottleSetting;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dpone.backfill.core.campaign.CampaignYamlFixture.mssql;
import static io.dpone.backfill.core.campaign.CampaignYamlFixture.replaceOnce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The throttle as a campaign file states it (issue 28): read strictly, refused naming its field. */
class ThrottleSpecTest {
    private static String withThrottle(String throttle) {
        return replaceOnce(mssql(), "  publication:\n", "  throttle: " + throttle + "\n  publication:\n");
    }

    @Test
    void aCeilingIsReadIntoTheSpecAndTheSettingTheLanesShare() {
        BackfillCampaignSpec spec = CampaignReader.parse(withThrottle("{rowsPerSecond: 100000, bytesPerSecond: 50000000}")).spec();

        assertThat(spec.getThrottle().getRowsPerSecond()).isEqualTo(100_000L);
        assertThat(ThrottleSetting.of(spec.getThrottle(), spec.getParallelWorkers()))
                .isEqualTo(new ThrottleSetting(100_000, 50_000_000, spec.getParallelWorkers()));
        assertThat(ThrottleSetting.of(spec.getThrottle(), 4).describe())
                .isEqualTo("100000 rows/s, 50000000 bytes/s shared by 4 lanes");
    }

    @Test
    void noThrottleMeansNoCeiling() {
        BackfillCampaignSpec spec = CampaignReader.parse(mssql()).spec();

        assertThat(spec.getThrottle()).isNull();
        assertThat(ThrottleSetting.of(spec.getThrottle(), 4).limited()).isFalse();
        assertThat(ThrottleSetting.of(spec.getThrottle(), 4).describe()).isEqualTo("no ceiling");
    }

    @Test
    void aCeilingThatIsNotPositiveIsRefusedNamingItsField() {
        assertThat(paths(withThrottle("{rowsPerSecond: 0}"))).contains("spec.throttle.rowsPerSecond");
        assertThat(paths(withThrottle("{bytesPerSecond: -5}"))).contains("spec.throttle.bytesPerSecond");
        assertThat(paths(withThrottle("{rowsPerSecond: 2000000000000}"))).contains("spec.throttle.rowsPerSecond");
    }

    @Test
    void anUnknownThrottleFieldIsRefusedNamingIt() {
        assertThat(paths(withThrottle("{rowPerSecond: 10}"))).anyMatch(p -> p.startsWith("spec.throttle"));
    }

    private static List<String> paths(String yaml) {
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(yaml));
        assertThat(e).as(yaml).isNotNull();
        return e.errors().stream().map(FieldError::path).toList();
    }
}
