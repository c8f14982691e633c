package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignDefinition;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.campaign.ThrottleStatus;
import io.dpone.backfill.core.digest.CanonicalJson;
import io.dpone.backfill.core.ledger.ClaimPause;
import io.dpone.backfill.core.ledger.InMemoryLedger;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.ThrottleSetting;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.CampaignIdentity;
import io.dpone.backfill.core.source.FakeSourceLoad;
import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Load windows (issue 28): outside every window the lanes claim nothing; the driver's clock decides, moved here. */
class LoadWindowTest {
    private static final String NIGHTS = "{windows: [{from: '22:00', to: '06:00', timeZone: Europe/Berlin},"
            + " {from: '12:00', to: '13:00', timeZone: UTC}]}";

    private final FakeSourceLoad source = new FakeSourceLoad();

    @Test
    void outsideEveryWindowClaimsPauseUntilOneOpensAndTheMessageNamesTheNextOpening() {
        BackfillCampaignSpec spec = spec(NIGHTS);
        LedgerStore ledger = ledger(spec);
        String runKey = ledger.findByBackfillId(spec.getBackfillId()).orElseThrow().runKey();

        // 10:00 UTC = 11:00 in Berlin in winter: outside both.
        Optional<ClaimGate.Change> morning = ClaimGate.apply(source, Instant.parse("2026-12-04T10:00:00Z"), ledger, runKey, spec);
        assertThat(morning).hasValueSatisfying(c -> {
            assertThat(c.pause().reason()).isEqualTo(ClaimPause.OUTSIDE_LOAD_WINDOW);
            assertThat(c.pause().message()).isEqualTo("outside the load windows (22:00-06:00 Europe/Berlin, 12:00-13:00 UTC);"
                    + " the next opens at 2026-12-04T12:00:00Z");
        });
        assertThat(ClaimGate.apply(source, Instant.parse("2026-12-04T11:00:00Z"), ledger, runKey, spec))
                .as("still outside: nothing written").isEmpty();
        assertThat(ClaimGate.apply(source, Instant.parse("2026-12-04T12:00:00Z"), ledger, runKey, spec))
                .hasValueSatisfying(c -> assertThat(c.paused()).isFalse());
        assertThat(ClaimGate.apply(source, Instant.parse("2026-12-04T13:00:00Z"), ledger, runKey, spec)).isPresent();
        assertThat(ClaimGate.apply(source, Instant.parse("2026-12-04T21:30:00Z"), ledger, runKey, spec))
                .as("22:30 in Berlin: the night window, across midnight").hasValueSatisfying(c -> assertThat(c.paused()).isFalse());
        assertThat(ClaimGate.apply(source, Instant.parse("2026-12-05T04:59:00Z"), ledger, runKey, spec)).isEmpty();
        assertThat(ledger.claimPause(runKey)).isEmpty();
    }

    @Test
    void insideAWindowTheSourceGuardStillDecides() {
        BackfillCampaignSpec spec = spec("{sourceGuard: {maxActiveSessions: 10}, windows: [{from: '00:00', to: '23:59'}]}");
        LedgerStore ledger = ledger(spec);
        String runKey = ledger.findByBackfillId(spec.getBackfillId()).orElseThrow().runKey();
        source.sessions(11);

        assertThat(ClaimGate.apply(source, Instant.parse("2026-12-04T10:00:00Z"), ledger, runKey, spec))
                .hasValueSatisfying(c -> assertThat(c.pause().reason()).isEqualTo(ClaimPause.SOURCE_GUARD));
        assertThat(ClaimGate.apply(source, Instant.parse("2026-12-04T23:59:30Z"), ledger, runKey, spec))
                .as("outside the window now: the reason changes").hasValueSatisfying(c ->
                        assertThat(c.pause().reason()).isEqualTo(ClaimPause.OUTSIDE_LOAD_WINDOW));
    }

    @Test
    void aPauseForTheWindowIsTheThrottledStatusOutsideLoadWindow() {
        ThrottleStatus t = ThrottleJudge.status(ThrottleSetting.NONE, Optional.of(new ClaimPause(ClaimPause.OUTSIDE_LOAD_WINDOW,
                "outside the load windows (22:00-06:00 UTC); the next opens at 2026-12-04T22:00:00Z")), CampaignPhase.Loading, 0, false);

        assertThat(t.getReason()).isEqualTo("OutsideLoadWindow");
        assertThat(t.throttled()).isTrue();
    }

    @Test
    void windowsNeverChangeTheRunKeyAndABadOneIsRefusedNamingItsIndex() {
        BackfillCampaignSpec plain = CampaignReader.parse(CampaignYamlFixture.postgres()).spec();
        assertThat(CampaignIdentity.configDigest(spec(NIGHTS))).isEqualTo(CampaignIdentity.configDigest(plain));

        assertThat(paths("{windows: [{from: '01:00', to: '02:00'}, {from: '25:00', to: '02:00'}]}"))
                .contains("spec.throttle.windows[1].from");
        assertThat(paths("{windows: [{from: '01:00', to: '01:00'}]}")).contains("spec.throttle.windows[0].to");
        assertThat(paths("{windows: [{from: '01:00', to: '02:00', timeZone: Mars/Olympus}]}"))
                .contains("spec.throttle.windows[0].timeZone");
    }

    private static LedgerStore ledger(BackfillCampaignSpec spec) {
        LedgerStore ledger = new InMemoryLedger().connect();
        ledger.ensureSchema();
        ledger.createCampaign(CampaignBlueprint.of(new CampaignDefinition("c", null, spec)), CanonicalJson.write(spec));
        return ledger;
    }

    private static BackfillCampaignSpec spec(String throttle) {
        return CampaignReader.parse(yaml(throttle)).spec();
    }

    private static String yaml(String throttle) {
        return CampaignYamlFixture.replaceOnce(CampaignYamlFixture.postgres(), "  publication:\n",
                "  throttle: " + throttle + "\n  publication:\n");
    }

    private static List<String> paths(String throttle) {
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(yaml(throttle)));
        assertThat(e).isNotNull();
        return e.errors().stream().map(FieldError::path).toList();
    }
}
