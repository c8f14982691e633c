package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.driver.OperatorActions;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pre-flight in the operator: a campaign `doctor` would fail creates no pod and no database object, says why in a
 * PreflightFailed condition, a bounded list of findings and one Event, and starts once the cause is fixed and
 * the pre-flight is retried; the expert annotation skips it and the status records that.
 */
class PreflightIT extends OperatorSuite {
    private void breakTheChunkColumn() throws Exception {
        h.db.source.execute("ALTER TABLE public.items DROP CONSTRAINT items_pkey",
                "ALTER TABLE public.items ALTER COLUMN id DROP NOT NULL", "INSERT INTO public.items VALUES (NULL, 0, 'no chunk')");
    }

    private void annotate(String key, String value) {
        h.client.resources(BackfillCampaign.class).inNamespace(OperatorHarness.NS).withName("items").edit(c -> {
            c.getMetadata().setAnnotations(new HashMap<>(c.getMetadata().getAnnotations() == null ? Map.of()
                    : c.getMetadata().getAnnotations()));
            c.getMetadata().getAnnotations().put(key, value);
            return c;
        });
    }

    @Test
    void aCampaignPreflightRefusesCreatesNothingAndStartsAfterTheFixAndARetry() throws Exception {
        harness(2000);
        breakTheChunkColumn();
        h.startOperator("operator-a");
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_preflight", 8, 2, ""));

        Await.until(Duration.ofSeconds(30), () -> h.status("items") != null && ConditionSet.find(h.status("items").getConditions(),
                CampaignConditions.STALLED).map(c -> CampaignConditions.PREFLIGHT_FAILED.equals(c.getReason())).orElse(false),
                () -> String.valueOf(h.status("items")));
        BackfillCampaignStatus refused = h.status("items");
        assertThat(refused.getPhase()).isEqualTo(CampaignPhase.Blocked);
        assertThat(refused.getPreflight().getResult()).isEqualTo("failed");
        assertThat(refused.getPreflight().getErrors()).isEqualTo(2);
        assertThat(refused.getPreflight().getFindings()).hasSizeLessThanOrEqualTo(10)
                .anyMatch(f -> f.startsWith("ERROR source.chunk-column.nullable"));
        assertThat(refused.getRecommendedAction()).contains(OperatorActions.PREFLIGHT_RETRY);
        h.awaitEvents(CampaignConditions.PREFLIGHT_FAILED);
        Thread.sleep(1500);
        assertThat(h.eventReasons().stream().filter(CampaignConditions.PREFLIGHT_FAILED::equals)).as("one Event").hasSize(1);
        assertThat(h.pods()).as("no lane pod").isEmpty();
        assertThat(h.db.target.hasSchema("backfill_state")).as("no ledger").isFalse();
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM pg_class WHERE relname LIKE 'items__bf%'")).as("no shadow").isZero();

        h.db.source.execute("DELETE FROM public.items WHERE id IS NULL", "ALTER TABLE public.items ADD PRIMARY KEY (id)");
        annotate(OperatorActions.PREFLIGHT_RETRY, "1");
        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(60));
        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
        assertThat(h.status("items").getPreflight().getResult()).isEqualTo("passed");
        assertThat(h.get("items").getMetadata().getAnnotations())
                .containsEntry(OperatorActions.PREFLIGHT_RETRY + OperatorActions.DONE_SUFFIX, "1");
    }

    @Test
    void theSkipAnnotationStartsWithoutPreflightAndTheStatusSaysSo() throws Exception {
        harness(2000);
        // Nullable but without a NULL row: pre-flight would refuse, the load itself is exact.
        h.db.source.execute("ALTER TABLE public.items DROP CONSTRAINT items_pkey", "ALTER TABLE public.items ALTER COLUMN id DROP NOT NULL");
        h.startOperator("operator-a");
        BackfillCampaign campaign = PgCampaign.campaign(OperatorHarness.NS, "items", "items_skip", 8, 2, "");
        campaign.getMetadata().setAnnotations(Map.of(OperatorActions.SKIP_PREFLIGHT, "reviewed by the DBA"));
        h.apply(campaign);

        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(60));
        BackfillCampaignStatus done = h.status("items");
        assertThat(done.getPreflight().getResult()).isEqualTo("skipped");
        assertThat(done.getPreflight().getSkippedBy()).contains(OperatorActions.SKIP_PREFLIGHT).contains("reviewed by the DBA");
        assertThat(done.getPublication().getUncoveredSourceRows()).isZero();
        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
    }
}
