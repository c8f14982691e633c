package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.driver.OperatorActions;
import io.dpone.backfill.operator.events.CampaignEvents;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.status.StatusJson;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PrinterColumns;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spec.reconcile: once} through the operator (issue 38, ADR 0057), on real PostgreSQL: the source is written
 * (inserts, updates, deletes) throughout the load and after it; the operator publishes, runs one pass before the
 * handoff, and the handoff carries the pass's anchor. The swap waits for an approval only so that the last writes
 * land at a known point after the load, which the pass must catch.
 */
class ReconcileBeforeHandoffIT extends OperatorSuite {
    @Test
    void reconcileOnceCatchesTheTableUpWithTheSourceBeforeTheHandoffWhichCarriesThePassAnchor() throws Exception {
        harness(20_000);
        String yaml = CampaignYaml.campaign("items_reconciled").name("items").namespace(OperatorHarness.NS)
                .chunk(CampaignYaml.uuidChunks(16)).parallelWorkers(2)
                .extraSpec("  publication: {mode: shadow_swap, approval: manual}\n  reconcile: {mode: once}\n").render();
        h.startOperator("operator-a");
        h.apply(Serialization.unmarshal(yaml, BackfillCampaign.class));

        // Throughout the load: a writer inserts, updates and deletes rows all over the key space.
        AtomicBoolean loading = new AtomicBoolean(true);
        AtomicInteger writes = new AtomicInteger();
        Thread writer = new Thread(() -> {
            int i = 0;
            while (loading.get()) {
                try {
                    h.db.source.execute(
                            "INSERT INTO public.items VALUES (gen_random_uuid(), " + (100_000 + i) + ", 'inserted while loading')",
                            "UPDATE public.items SET qty = qty + 1000000, note = 'updated while loading' WHERE id ="
                                    + " (SELECT id FROM public.items WHERE qty BETWEEN 1 AND 19000 ORDER BY md5(qty::text || '" + i + "') LIMIT 1)",
                            "DELETE FROM public.items WHERE id = (SELECT id FROM public.items WHERE qty BETWEEN 1 AND 19000"
                                    + " ORDER BY md5('d' || qty::text || '" + i + "') LIMIT 1)");
                    writes.incrementAndGet();
                    i++;
                    Thread.sleep(5);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }, "source-writer");
        writer.start();
        try {
            Await.until(Duration.ofSeconds(90), () -> h.status("items") != null && ConditionSet.isTrue(
                    h.status("items").getConditions(), CampaignConditions.AWAITING_APPROVAL), () -> String.valueOf(h.status("items")));
        } finally {
            loading.set(false);
            writer.join();
        }
        assertThat(writes.get()).as("the source was written during the load").isPositive();
        // And after it, at a known point: the load cannot have seen these.
        h.db.source.execute("INSERT INTO public.items VALUES ('00000000-0000-0000-0000-0000000000aa', 7, 'inserted after the load')",
                "UPDATE public.items SET note = 'updated after the load' WHERE qty = 20000",
                "DELETE FROM public.items WHERE qty = 19999");
        assertThat(ItemsTable.rows(h.db.target)).as("nothing swapped yet").hasSize(1);

        approve("items");
        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));

        assertThat(ItemsTable.rows(h.db.target)).as("the published table is the source, deletes included")
                .isEqualTo(ItemsTable.rows(h.db.source));
        String passAnchor = h.db.target.queryForStrings("SELECT anchor FROM backfill_state.reconcile_pass WHERE pass = 1").get(0);
        String loadAnchor = h.db.target.queryForStrings("SELECT anchor_xmin FROM backfill_state.campaign").get(0);
        assertThat(h.db.target.queryForStrings("SELECT anchor_xmin FROM backfill_state.handoff_receipt"))
                .as("the handoff receipt carries the pass's anchor").containsExactly(passAnchor);
        assertThat(passAnchor).isNotEqualTo(loadAnchor);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.reconcile_pass")).as("one pass, once").isEqualTo(1);

        BackfillCampaignStatus status = h.status("items");
        assertThat(status.getHandoff().getAnchorXmin()).isEqualTo(passAnchor);
        assertThat(status.getHandoff().getFromPass()).isEqualTo(1);
        var r = status.getReconciliation();
        assertThat(r).as(StatusJson.write(status)).isNotNull();
        assertThat(r.getMode()).isEqualTo("once");
        assertThat(r.getPassCount()).isEqualTo(1);
        assertThat(r.getUpserted()).as("at least the rows inserted and updated after the load").isGreaterThanOrEqualTo(2);
        assertThat(r.getDeleted()).as("at least the row deleted after the load").isGreaterThanOrEqualTo(1);
        assertThat(r.getQueue()).isZero();
        assertThat(r.getSyncAnchor()).isEqualTo(passAnchor);
        assertThat(r.getSyncAnchorFromPass()).isEqualTo(1);
        assertThat(r.getCaughtUp()).isTrue();
        assertThat(ConditionSet.isTrue(status.getConditions(), CampaignConditions.READY)).isTrue();
        assertThat(ConditionSet.isTrue(status.getConditions(), CampaignConditions.RECONCILING))
                .as("a finished pass leaves no Reconciling=True behind (kstatus Current)").isFalse();
        assertThat(ConditionSet.isTrue(status.getConditions(), CampaignConditions.CAUGHT_UP)).isTrue();

        h.awaitEvents(CampaignEvents.RECONCILE_PASS_FINISHED, "HandoffCommitted");
        Event pass = h.events().stream().filter(e -> CampaignEvents.RECONCILE_PASS_FINISHED.equals(e.getReason())).findFirst().orElseThrow();
        assertThat(pass.getType()).isEqualTo("Normal");
        assertThat(pass.getMessage()).contains("reconciliation pass 1", passAnchor, "upserted", "deleted", "queued");
        List<Event> handoff = h.events().stream().filter(e -> "HandoffCommitted".equals(e.getReason())).toList();
        assertThat(handoff).singleElement().satisfies(e -> assertThat(e.getMessage()).contains(passAnchor, "reconciliation pass 1"));
        String table = PrinterColumns.table(h.get("items"));
        System.out.println("$ kubectl get bfc items -n " + OperatorHarness.NS + "\n" + table);
        assertThat(table).contains("HandoffCommitted");
    }

    private void approve(String name) {
        h.client.resources(BackfillCampaign.class).inNamespace(OperatorHarness.NS).withName(name).edit(c -> {
            Map<String, String> annotations = new HashMap<>(c.getMetadata().getAnnotations() == null ? Map.of()
                    : c.getMetadata().getAnnotations());
            annotations.put(OperatorActions.APPROVE, "jane.doe");
            c.getMetadata().setAnnotations(annotations);
            return c;
        });
    }
}
