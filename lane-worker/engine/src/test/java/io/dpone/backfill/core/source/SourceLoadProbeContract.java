package io.dpone.backfill.core.source;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.digest.CanonicalJson;
import io.dpone.backfill.core.engine.ClaimGate;
import io.dpone.backfill.core.ledger.InMemoryLedger;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link SourceLoadProbe} contract (issue 28), run against the PostgreSQL probe on a real server and against
 * the fake the guard's unit tests use, so the fake behaves as the real one does: sessions made active are counted,
 * backfill's own are not, and crossing a bound pauses claims until the sessions end.
 */
public abstract class SourceLoadProbeContract {
    protected abstract SourceLoadProbe probe();

    /** Makes {@code n} more sessions active on the source (named as a user's would be) until the handle closes. */
    protected abstract AutoCloseable activeSessions(int n) throws Exception;

    /** Makes {@code n} of backfill's own sessions (application name {@code backfill-lane-...}) active. */
    protected abstract AutoCloseable backfillSessions(int n) throws Exception;

    @Test
    void aSourceWithoutReplicasReportsNoLag() {
        assertThat(probe().read().replicaLagSeconds()).isNull();
    }

    @Test
    void activeSessionsAreCountedAndBackfillsOwnAreNot() throws Exception {
        int before = probe().read().activeSessions();
        try (AutoCloseable ours = backfillSessions(2)) {
            assertThat(probe().read().activeSessions()).as("backfill's own lanes").isEqualTo(before);
            try (AutoCloseable theirs = activeSessions(3)) {
                assertThat(probe().read().activeSessions()).isEqualTo(before + 3);
            }
        }
        assertThat(probe().read().activeSessions()).isEqualTo(before);
    }

    @Test
    void sessionsCrossingTheBoundPauseClaimsAndTheirEndResumesThem() throws Exception {
        int before = probe().read().activeSessions();
        BackfillCampaignSpec spec = CampaignReader.parse(CampaignYamlFixture.replaceOnce(CampaignYamlFixture.postgres(),
                "  publication:\n", "  throttle: {sourceGuard: {maxActiveSessions: " + (before + 2) + "}}\n  publication:\n")).spec();
        CampaignBlueprint blueprint = CampaignBlueprint.of(new io.dpone.backfill.core.campaign.CampaignDefinition("c", null, spec));
        LedgerStore ledger = new InMemoryLedger().connect();
        ledger.ensureSchema();
        String runKey = ledger.createCampaign(blueprint, CanonicalJson.write(spec)).runKey();

        assertThat(ClaimGate.apply(probe(), java.time.Instant.now(), ledger, runKey, spec)).as("under the bound").isEmpty();
        try (AutoCloseable busy = activeSessions(3)) {
            assertThat(ClaimGate.apply(probe(), java.time.Instant.now(), ledger, runKey, spec)).hasValueSatisfying(c ->
                    assertThat(c.pause().message()).contains("active sessions (bound " + (before + 2) + ")"));
            assertThat(ledger.claimPause(runKey)).isPresent();
            assertThat(ClaimGate.apply(probe(), java.time.Instant.now(), ledger, runKey, spec)).as("still over: nothing new").isEmpty();
        }
        assertThat(ClaimGate.apply(probe(), java.time.Instant.now(), ledger, runKey, spec)).hasValueSatisfying(c ->
                assertThat(c.paused()).isFalse());
        assertThat(ledger.claimPause(runKey)).isEmpty();
    }
}
