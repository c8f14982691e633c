package io.dpone.backfill.core.campaign;

import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;

import static io.dpone.backfill.core.campaign.CampaignYamlFixture.mssql;
import static io.dpone.backfill.core.campaign.CampaignYamlFixture.replaceOnce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The daily publication window (issue 28): local times in a zone, across midnight and daylight-saving changes. */
class SwapWindowTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void aWindowContainsItsStartAndNotItsEndAndOpensNextAtItsStart() {
        SwapWindow w = new SwapWindow(LocalTime.of(1, 0), LocalTime.of(5, 0), BERLIN);
        assertThat(w.contains(Instant.parse("2026-12-04T00:00:00Z"))).as("01:00 Berlin").isTrue();
        assertThat(w.contains(Instant.parse("2026-12-04T03:59:59Z"))).as("04:59:59 Berlin").isTrue();
        assertThat(w.contains(Instant.parse("2026-12-04T04:00:00Z"))).as("05:00 Berlin").isFalse();
        assertThat(w.opensAt(Instant.parse("2026-12-04T12:00:00Z")).toString()).isEqualTo("2026-12-05T01:00+01:00[Europe/Berlin]");
        assertThat(w.opensAt(Instant.parse("2026-12-03T23:30:00Z")).toString()).as("00:30 Berlin: later today")
                .isEqualTo("2026-12-04T01:00+01:00[Europe/Berlin]");
        assertThat(w.describe()).isEqualTo("01:00-05:00 Europe/Berlin");
    }

    @Test
    void aWindowEndingBeforeItStartsSpansMidnight() {
        SwapWindow w = new SwapWindow(LocalTime.of(22, 0), LocalTime.of(2, 0), ZoneId.of("UTC"));
        assertThat(w.contains(Instant.parse("2026-12-04T23:00:00Z"))).isTrue();
        assertThat(w.contains(Instant.parse("2026-12-05T01:59:00Z"))).isTrue();
        assertThat(w.contains(Instant.parse("2026-12-05T12:00:00Z"))).isFalse();
        assertThat(w.opensAt(Instant.parse("2026-12-05T12:00:00Z")).toInstant()).isEqualTo(Instant.parse("2026-12-05T22:00:00Z"));
    }

    @Test
    void wallClockHoursHoldAcrossADaylightSavingChange() {
        SwapWindow w = new SwapWindow(LocalTime.of(2, 30), LocalTime.of(4, 0), BERLIN);
        // 2026-03-29: clocks jump from 02:00 to 03:00 in Berlin; 02:30 does not exist that day.
        assertThat(w.opensAt(Instant.parse("2026-03-28T12:00:00Z")).toString()).isEqualTo("2026-03-29T03:30+02:00[Europe/Berlin]");
        // In summer time the window is 00:30-02:00 UTC.
        assertThat(w.contains(Instant.parse("2026-06-01T00:45:00Z"))).isTrue();
        assertThat(w.contains(Instant.parse("2026-06-01T02:15:00Z"))).isFalse();
    }

    @Test
    void aBadWindowIsRefusedNamingTheField() {
        String base = replaceOnce(mssql(), "  publication:\n", "  publication:\n    window: {from: '%s', to: '%s', timeZone: %s}\n");
        assertThat(paths(String.format(base, "25:00", "03:00", "UTC"))).contains("spec.publication.window.from");
        assertThat(paths(String.format(base, "01:00", "01:00", "UTC"))).contains("spec.publication.window.to");
        assertThat(paths(String.format(base, "01:00", "03:00", "Mars/Olympus"))).contains("spec.publication.window.timeZone");
        BackfillCampaignSpec ok = CampaignReader.parse(String.format(base, "01:00", "03:00", "Europe/Berlin")).spec();
        assertThat(SwapWindow.of(ok.getPublication().getWindow()).orElseThrow().describe()).isEqualTo("01:00-03:00 Europe/Berlin");
    }

    @Test
    void aWindowOnADirectLoadIsRefused() {
        String direct = replaceOnce(replaceOnce(mssql(), "mode: shadow_swap", "mode: direct"), "  publication:\n",
                "  publication:\n    window: {from: '01:00', to: '03:00'}\n");
        assertThat(paths(direct)).contains("spec.publication.window");
    }

    private static java.util.List<String> paths(String yaml) {
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(yaml));
        assertThat(e).as(yaml).isNotNull();
        return e.errors().stream().map(FieldError::path).toList();
    }
}
