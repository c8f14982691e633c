package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.driver.OperatorActions;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.cli.kubectl.KubectlCommand;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PrinterColumns;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Manual approval through the operator (issue 28): a validated campaign waits with AwaitingApproval=True (what
 * {@code kubectl wait --for=condition=AwaitingApproval} waits for) and swaps nothing; the approve annotation records
 * who, the operator swaps, says so in an Event and the status, and the condition turns False.
 */
class ManualApprovalIT extends OperatorSuite {
    /** The kubectl plugin's command, against the mock API server the operator runs on. */
    private String kubectlBackfill(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new KubectlCommand(context -> new KubernetesClientBuilder()
                .withConfig(h.client.getConfiguration()).build()));
        cli.setOut(new PrintWriter(out)).setErr(new PrintWriter(out));
        int exit = cli.execute(args);
        assertThat(exit).as(out.toString()).isZero();
        return out.toString();
    }

    @Test
    void aManualCampaignWaitsInANamedStateUntilTheApproveAnnotationThenPublishes() throws Exception {
        harness(1500);
        String yaml = CampaignYaml.campaign("items_approval").name("items").namespace(OperatorHarness.NS)
                .chunk(CampaignYaml.uuidChunks(4)).parallelWorkers(2)
                .extraSpec("  publication: {mode: shadow_swap, approval: manual}\n").render();
        h.startOperator("operator-a");
        h.apply(Serialization.unmarshal(yaml, BackfillCampaign.class));

        Await.until(Duration.ofSeconds(60), () -> h.status("items") != null && ConditionSet.find(h.status("items").getConditions(),
                        CampaignConditions.AWAITING_APPROVAL).map(c -> "True".equals(c.getStatus())).orElse(false),
                () -> String.valueOf(h.status("items")));
        BackfillCampaignStatus waiting = h.status("items");
        assertThat(waiting.getPhase()).isEqualTo(CampaignPhase.Publishing);
        assertThat(ConditionSet.find(waiting.getConditions(), CampaignConditions.RECONCILING).orElseThrow().getReason())
                .isEqualTo(CampaignConditions.AWAITING_APPROVAL);
        assertThat(waiting.getRecommendedAction()).contains("kubectl backfill publish items");
        assertThat(waiting.getPublication().getApproval()).isEqualTo("manual");
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM public.items")).as("nothing swapped").isEqualTo(1);
        String table = PrinterColumns.table(h.get("items"));
        assertThat(table).contains("Publishing").contains("AwaitingApproval");
        String status = kubectlBackfill("status", "items", "-n", OperatorHarness.NS);
        assertThat(status).contains("Publishing");
        System.out.println("$ kubectl get bfc items -n " + OperatorHarness.NS + "\n" + table
                + "\n\n$ kubectl backfill status items -n " + OperatorHarness.NS + "\n" + status);

        h.client.resources(BackfillCampaign.class).inNamespace(OperatorHarness.NS).withName("items").edit(c -> {
            Map<String, String> annotations = new HashMap<>(c.getMetadata().getAnnotations() == null ? Map.of()
                    : c.getMetadata().getAnnotations());
            annotations.put(OperatorActions.APPROVE, "jane.doe");
            c.getMetadata().setAnnotations(annotations);
            return c;
        });
        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(60));
        BackfillCampaignStatus done = h.status("items");
        assertThat(done.getPublication().getApprovedBy()).isEqualTo("annotation " + OperatorActions.APPROVE + ": jane.doe");
        assertThat(ConditionSet.find(done.getConditions(), CampaignConditions.AWAITING_APPROVAL).orElseThrow().getStatus())
                .isEqualTo("False");
        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
        h.awaitEvents("PublicationApproved");
        assertThat(h.get("items").getMetadata().getAnnotations()).containsEntry(OperatorActions.APPROVE + OperatorActions.DONE_SUFFIX, "jane.doe");
    }
}
