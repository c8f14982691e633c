package io.dpone.backfill.core.digest;

import io.dpone.backfill.core.campaign.ArtifactScope;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.campaign.ImagePullPolicy;
import io.dpone.backfill.core.campaign.PublicationMode;
import io.dpone.backfill.core.campaign.RetryPolicy;
import io.dpone.backfill.core.campaign.SpecDefaults;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.CampaignIdentity;
import io.dpone.backfill.core.plan.ChunkPlanner;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

class CampaignIdentityTest {

    private static BackfillCampaignSpec base() {
        return CampaignReader.parse(CampaignYamlFixture.mssql()).spec();
    }

    private static CampaignIdentity identity(BackfillCampaignSpec normalised) {
        return CampaignIdentity.of(normalised, ChunkPlanner.plan(normalised.getChunk()));
    }

    /**
     * Golden values: if this fails, campaign identities changed and every running campaign would be told to use a
     * new backfillId. Change the format prefixes deliberately, never by accident.
     */
    @Test
    void sameSpecAlwaysYieldsThePinnedDigests() {
        CampaignIdentity id = CampaignBlueprint.of(CampaignReader.parse(CampaignYamlFixture.mssql())).identity();
        assertThat(id.planDigest()).isEqualTo("339c022cf430d4745d90b2c2801903f666af783a38620d5acdb5b13d58ff2bbe");
        assertThat(id.configDigest()).isEqualTo("2561d6113905b8ded91bab132e91af7b3244bf8f0cda8b924c488a0bab2686ce");
        assertThat(id.runKey()).isEqualTo("rk-f031fff10c7bcf05b88089c4");
    }

    @Test
    void explicitDefaultsAndOmittedDefaultsGiveTheSameIdentity() {
        String yaml = CampaignYamlFixture.postgres();
        String explicit = CampaignYamlFixture.replaceOnce(yaml, "    mode: shadow_swap\n",
                "    mode: shadow_swap\n    retainBackup: true\n    artifactScope: stable\n  innerMode: incremental_append\n"
                        + "  onlyNewRows: false\n  retryPolicy: non_committed\n  maxChunkAttempts: 5\n"
                        + "  state:\n    backend: audit_schema\n    schema: backfill_state\n    requireDistributedLock: true\n");
        assertThat(identity(CampaignReader.parse(explicit).spec())).isEqualTo(identity(CampaignReader.parse(yaml).spec()));
    }

    @Test
    void everyExecutionPolicyChangeChangesTheConfigDigestAndRunKey() {
        CampaignIdentity original = identity(base());
        Map<String, Consumer<BackfillCampaignSpec>> changes = Map.ofEntries(
                Map.entry("backfillId", s -> s.setBackfillId("orders_initial_typed_v2")),
                Map.entry("source.table", s -> s.getSource().setTable("orders2")),
                Map.entry("source.schema", s -> s.getSource().setSchema("crm")),
                Map.entry("source.secret", s -> s.getSource().getConnectionSecretRef().setName("other")),
                Map.entry("target.table", s -> s.getTarget().setTable("orders2")),
                Map.entry("target.schema", s -> s.getTarget().setSchema("archive")),
                Map.entry("target.secret", s -> s.getTarget().getConnectionSecretRef().setName("other")),
                Map.entry("uniqueKey", s -> s.setUniqueKey(List.of("id", "tenant"))),
                Map.entry("parallelWorkers", s -> s.setParallelWorkers(8)),
                Map.entry("retryPolicy", s -> s.setRetryPolicy(RetryPolicy.NONE)),
                Map.entry("maxChunkAttempts", s -> s.setMaxChunkAttempts(2)),
                Map.entry("state.schema", s -> s.getState().setSchema("ledger")),
                Map.entry("publication.mode", s -> s.getPublication().setMode(PublicationMode.DIRECT)),
                Map.entry("publication.artifactScope", s -> s.getPublication().setArtifactScope(ArtifactScope.STABLE)),
                Map.entry("chunk.column", s -> s.getChunk().setColumn("order_id")));
        changes.forEach((field, change) -> {
            BackfillCampaignSpec changed = base();
            change.accept(changed);
            CampaignIdentity id = identity(SpecDefaults.apply(changed));
            assertThat(id.configDigest()).as(field).isNotEqualTo(original.configDigest());
            assertThat(id.runKey()).as(field).isNotEqualTo(original.runKey());
        });
    }

    @Test
    void aChangedPlanChangesThePlanDigest() {
        BackfillCampaignSpec changed = base();
        changed.getChunk().setBuckets(513);
        CampaignIdentity id = identity(changed);
        assertThat(id.planDigest()).isNotEqualTo(identity(base()).planDigest());
        assertThat(id.runKey()).isNotEqualTo(identity(base()).runKey());
    }

    @Test
    void suspendAndLanePodSettingsDoNotChangeTheIdentity() {
        BackfillCampaignSpec changed = base();
        changed.setSuspend(true);
        changed.getLane().setImage("registry.example/backfill:2");
        changed.getLane().setImagePullPolicy(ImagePullPolicy.ALWAYS);
        changed.getLane().setMaxPodFailures(9);
        assertThat(identity(changed)).isEqualTo(identity(base()));
    }

    @Test
    void aThrottleSetChangedOrRemovedNeverChangesTheIdentity() {
        BackfillCampaignSpec throttled = base();
        io.dpone.backfill.core.campaign.ThrottleSpec throttle = new io.dpone.backfill.core.campaign.ThrottleSpec();
        throttle.setRowsPerSecond(100_000L);
        throttle.setBytesPerSecond(50_000_000L);
        throttled.setThrottle(throttle);
        BackfillCampaignSpec loosened = throttled.copy();
        loosened.getThrottle().setRowsPerSecond(1L);

        assertThat(identity(throttled)).isEqualTo(identity(base()));
        assertThat(identity(loosened)).isEqualTo(identity(base()));
        assertThat(CampaignIdentity.configDigest(throttled)).isEqualTo(CampaignIdentity.configDigest(base()));
    }

    @Test
    void runKeyIsBounded() {
        assertThat(identity(base()).runKey()).matches("rk-[0-9a-f]{24}");
    }
}
