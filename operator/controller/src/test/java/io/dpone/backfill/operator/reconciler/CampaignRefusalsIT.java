package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Campaigns the operator must refuse: nothing is created for them, and the condition says what to do. */
class CampaignRefusalsIT extends OperatorSuite {
    @BeforeEach
    void setUp() throws Exception {
        harness(1000);
        h.startOperator("operator-a");
    }

    @Test
    void anInvalidCampaignGetsAnInvalidConditionAndCreatesNoPodAndNoDatabaseObject() throws Exception {
        // Passes the CRD (a real API server admits it: MockCluster applies its schema and CEL rules), refused by the
        // operator's own rules. A spec the schema refuses (buckets 0, say) never reaches the operator.
        BackfillCampaign bad = PgCampaign.campaign(OperatorHarness.NS, "bad", "items_bad", 8, 2, "  onlyNewRows: true\n");
        h.apply(bad);
        h.awaitPhase("bad", CampaignPhase.Invalid, Duration.ofSeconds(30));

        BackfillCampaignStatus status = h.status("bad");
        var stalled = ConditionSet.find(status.getConditions(), CampaignConditions.STALLED).orElseThrow();
        assertThat(stalled.getStatus()).isEqualTo("True");
        assertThat(stalled.getReason()).isEqualTo("Invalid");
        assertThat(stalled.getMessage()).contains("spec.onlyNewRows").contains("nothing was created");
        assertThat(ConditionSet.find(status.getConditions(), CampaignConditions.READY).orElseThrow().getReason()).isEqualTo("Invalid");
        assertThat(status.getRunKey()).isNull();
        h.awaitEvents("Invalid");
        Thread.sleep(1500);
        assertThat(h.pods()).isEmpty();
        assertThat(h.db.target.hasSchema("backfill_state")).as("no ledger").isFalse();
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM pg_class WHERE relname LIKE 'items__bf%'")).as("no shadow").isZero();
    }

    @Test
    void aTargetSecretForAnotherEngineIsRefusedNamingTheKeyBeforeAnyConnection() throws Exception {
        // The campaign says mssql; its target Secret holds a PostgreSQL URL: refused, nothing created anywhere.
        BackfillCampaign mssql = PgCampaign.campaign(OperatorHarness.NS, "mssql", "items_mssql", 8, 2, "");
        mssql.getSpec().getTarget().setType(io.dpone.backfill.core.campaign.TargetType.MSSQL);
        h.apply(mssql);
        Await.until(Duration.ofSeconds(30), () -> h.status("mssql") != null && h.status("mssql").getConditions().stream()
                .anyMatch(c -> "SecretInvalid".equals(c.getReason())), () -> "no SecretInvalid condition: " + h.status("mssql"));
        var condition = h.status("mssql").getConditions().stream().filter(c -> "SecretInvalid".equals(c.getReason())).findFirst().orElseThrow();
        assertThat(condition.getMessage()).contains("tgt-db").contains("jdbcUrl must start with jdbc:sqlserver:");
        assertThat(h.pods()).isEmpty();
        assertThat(h.db.target.hasSchema("backfill_state")).isFalse();
    }

    @Test
    void anInvalidCampaignCorrectedInPlaceIsAdmittedAndPlanned() throws Exception {
        // ADR 0030: nothing planned, so the CRD's plan rule lets the spec change (what Argo CD or Flux do on a fix).
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_v1", 8, 1, "  onlyNewRows: true\n  suspend: true\n"));
        h.awaitPhase("items", CampaignPhase.Invalid, Duration.ofSeconds(30));
        assertThat(h.status("items").getRecommendedAction()).startsWith("fix the spec");

        h.client.resources(BackfillCampaign.class).inNamespace(OperatorHarness.NS).withName("items").edit(c -> {
            c.getSpec().setOnlyNewRows(false);
            return c;
        });

        h.awaitPhase("items", CampaignPhase.Suspended, Duration.ofSeconds(30));
        assertThat(h.status("items").getRunKey()).isNotNull();
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.campaign")).isEqualTo(1);
    }

    @Test
    void aChangedPlanOnAPlannedCampaignIsRefusedByTheApiServerAndTheCampaignKeepsItsPlan() throws Exception {
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_v1", 8, 1, "  suspend: true\n"));
        h.awaitPhase("items", CampaignPhase.Suspended, Duration.ofSeconds(30));
        String runKey = h.status("items").getRunKey();

        BackfillCampaign changed = h.get("items");
        changed.getSpec().getChunk().setBuckets(16);
        changed.getMetadata().setGeneration(null);
        // A real API server answers 422 (the CRD's plan rule, evaluated with oldSelf); so does the mock cluster here.
        assertThatThrownBy(() -> h.client.resource(changed).update()).isInstanceOf(KubernetesClientException.class)
                .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422))
                .hasMessageContaining("new backfillId");
        assertThat(h.cluster.admission.takeRefusals()).singleElement().asString().contains("FieldValueForbidden");

        Thread.sleep(1500);
        BackfillCampaignStatus status = h.status("items");
        assertThat(status.getPhase()).isEqualTo(CampaignPhase.Suspended);
        assertThat(status.getRunKey()).as("the planned campaign's identity is kept").isEqualTo(runKey);
        assertThat(h.get("items").getSpec().getChunk().getBuckets()).isEqualTo(8);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.campaign")).as("no second campaign was planned").isEqualTo(1);
    }
}
