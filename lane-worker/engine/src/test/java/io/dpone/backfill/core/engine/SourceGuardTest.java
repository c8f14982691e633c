package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignDefinition;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.campaign.SourceGuardSpec;
import io.dpone.backfill.core.campaign.ThrottleStatus;
import io.dpone.backfill.core.digest.CanonicalJson;
import io.dpone.backfill.core.ledger.InMemoryLedger;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.ThrottleSetting;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.source.FakeSourceLoad;
import io.dpone.backfill.core.source.SourceLoad;
import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The source guard (issue 28): over a bound pauses claims, under 80% of every bound resumes them. */
class SourceGuardTest {
    private static final java.time.Instant NOON = java.time.Instant.parse("2026-12-04T12:00:00Z");

    private static SourceGuardSpec bounds(Integer lag, Integer sessions) {
        SourceGuardSpec g = new SourceGuardSpec();
        g.setMaxReplicaLagSeconds(lag);
        g.setMaxActiveSessions(sessions);
        return g;
    }

    @Test
    void aReplicaLaggingPastItsBoundPausesAndResumesOnlyBelowEightyPercent() {
        SourceGuardSpec b = bounds(30, null);

        assertThat(SourceGuard.pause(b, new SourceLoad(30.0, 0), false)).as("at the bound").isEmpty();
        assertThat(SourceGuard.pause(b, new SourceLoad(31.5, 0), false)).hasValueSatisfying(r ->
                assertThat(r).isEqualTo("a replica of the source lags 31.5 s (bound 30 s)"));
        assertThat(SourceGuard.pause(b, new SourceLoad(25.0, 0), true)).as("paused, 25 s is not under 24 s").isPresent();
        assertThat(SourceGuard.pause(b, new SourceLoad(23.9, 0), true)).isEmpty();
        assertThat(SourceGuard.pause(b, new SourceLoad(null, 0), true)).as("no replica reports a lag").isEmpty();
    }

    @Test
    void activeSessionsPastTheirBoundPauseWithTheSameHysteresis() {
        SourceGuardSpec b = bounds(null, 50);

        assertThat(SourceGuard.pause(b, new SourceLoad(null, 51), false)).hasValue("the source has 51 active sessions (bound 50)");
        assertThat(SourceGuard.pause(b, new SourceLoad(null, 45), true)).isPresent();
        assertThat(SourceGuard.pause(b, new SourceLoad(null, 39), true)).isEmpty();
        assertThat(SourceGuard.pause(null, new SourceLoad(999.0, 999), false)).as("no guard").isEmpty();
    }

    @Test
    void theKeeperRecordsAPauseOnceWithItsFirstReasonAndClearsItWhenTheLagFalls() throws Exception {
        BackfillCampaignSpec spec = spec("{sourceGuard: {maxReplicaLagSeconds: 10}}");
        LedgerStore ledger = new InMemoryLedger().connect();
        ledger.ensureSchema();
        String runKey = ledger.createCampaign(CampaignBlueprint.of(new CampaignDefinition("c", null, spec)),
                CanonicalJson.write(spec)).runKey();
        FakeSourceLoad source = new FakeSourceLoad();

        source.lag(12.0);
        assertThat(ClaimGate.apply(source, NOON, ledger, runKey, spec)).isPresent();
        source.lag(15.0);
        assertThat(ClaimGate.apply(source, NOON, ledger, runKey, spec)).as("still paused: nothing written").isEmpty();
        assertThat(ledger.claimPause(runKey)).hasValue(new io.dpone.backfill.core.ledger.ClaimPause("SourceGuard",
                "a replica of the source lags 12.0 s (bound 10 s)"));
        source.lag(9.0);
        assertThat(ClaimGate.apply(source, NOON, ledger, runKey, spec)).as("not yet under 8 s").isEmpty();
        source.lag(2.0);
        assertThat(ClaimGate.apply(source, NOON, ledger, runKey, spec)).hasValueSatisfying(c -> assertThat(c.paused()).isFalse());
        assertThat(ledger.claimPause(runKey)).isEmpty();

        source.lag(60.0);
        ClaimGate.apply(source, NOON, ledger, runKey, spec);
        BackfillCampaignSpec unguarded = spec("{rowsPerSecond: 5}");
        assertThat(ClaimGate.apply(source, NOON, ledger, runKey, unguarded)).as("the guard removed from the spec")
                .hasValueSatisfying(c -> assertThat(c.paused()).isFalse());
    }

    @Test
    void aPauseIsTheThrottledStatusWhateverTheCeiling() {
        ThrottleStatus t = ThrottleJudge.status(ThrottleSetting.NONE, Optional.of(new io.dpone.backfill.core.ledger.ClaimPause(
                        "SourceGuard", "the source has 51 active sessions (bound 50)")),
                CampaignPhase.Loading, 0, false);

        assertThat(t.getReason()).isEqualTo(ThrottleStatus.SOURCE_GUARD);
        assertThat(t.throttled()).isTrue();
        assertThat(t.getMessage()).isEqualTo("no new chunk claims: the source has 51 active sessions (bound 50); running chunks finish");
    }

    @Test
    void aGuardWithoutABoundOrWithABadOneIsRefusedNamingTheField() {
        assertThat(paths("{sourceGuard: {}}")).contains("spec.throttle.sourceGuard");
        assertThat(paths("{sourceGuard: {maxReplicaLagSeconds: 0}}")).contains("spec.throttle.sourceGuard.maxReplicaLagSeconds");
        assertThat(paths("{sourceGuard: {maxActiveSessions: -1}}")).contains("spec.throttle.sourceGuard.maxActiveSessions");
    }

    private static BackfillCampaignSpec spec(String throttle) {
        return CampaignReader.parse(yaml(throttle)).spec();
    }

    private static String yaml(String throttle) {
        return CampaignYamlFixture.replaceOnce(CampaignYamlFixture.postgres(), "  publication:\n",
                "  throttle: " + throttle + "\n  publication:\n");
    }

    private static java.util.List<String> paths(String throttle) {
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(yaml(throttle)));
        assertThat(e).isNotNull();
        return e.errors().stream().map(FieldError::path).toList();
    }
}
