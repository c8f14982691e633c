package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.cli.kubectl.KubectlCommand;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.status.CampaignConditions;
import io.dpone.backfill.operator.status.ConditionSet;
import io.dpone.backfill.operator.status.StatusJson;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.PrinterColumns;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Throttling through the operator (issue 28): a campaign outside its load window loads nothing, says so in its
 * Throttled condition and status.throttle, and records its ceiling in the ledger; the throttle changed on the
 * running campaign (the window lifted, the ceiling kept) lets it load to its handoff under the same run key.
 */
class ThrottleIT extends OperatorSuite {
    @Test
    void outsideItsLoadWindowACampaignClaimsNothingAndLiftingTheWindowLoadsItUnderTheSameRunKey() throws Exception {
        harness(5000);
        // A window that opens two hours from now and lasts one: closed until the test lifts it.
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        DateTimeFormatter hhmm = DateTimeFormatter.ofPattern("HH:mm");
        String window = "{from: '" + now.plusHours(2).format(hhmm) + "', to: '" + now.plusHours(3).format(hhmm) + "'}";
        h.startOperator("operator-a");
        h.apply(PgCampaign.campaign(OperatorHarness.NS, "items", "items_throttle", 8, 2,
                "  throttle: {rowsPerSecond: 1000000, windows: [" + window + "]}\n"));

        Await.until(Duration.ofSeconds(60), () -> {
            BackfillCampaignStatus s = h.status("items");
            return s != null && s.getThrottle() != null && "OutsideLoadWindow".equals(s.getThrottle().getReason());
        }, () -> String.valueOf(h.status("items") == null ? null : StatusJson.write(h.status("items"))));
        Thread.sleep(1500); // lanes are up by now: one that claimed despite the pause would show
        BackfillCampaignStatus waiting = h.status("items");
        var throttled = ConditionSet.find(waiting.getConditions(), CampaignConditions.THROTTLED).orElseThrow();
        assertThat(throttled.getStatus()).isEqualTo("True");
        assertThat(throttled.getReason()).isEqualTo("OutsideLoadWindow");
        assertThat(throttled.getMessage()).contains("outside the load windows (").contains("the next opens at");
        assertThat(waiting.getPhase()).isEqualTo(CampaignPhase.Loading);
        assertThat(waiting.getThrottle().getRowsPerSecond()).isEqualTo(1_000_000L);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE attempts > 0"))
                .as("no chunk claimed outside the window").isZero();
        assertThat(h.db.target.queryForLong("SELECT throttle_rows_per_second FROM backfill_state.campaign"))
                .as("the operator recorded the ceiling for the lanes").isEqualTo(1_000_000L);
        String runKey = waiting.getRunKey();
        String table = PrinterColumns.table(h.get("items"));
        assertThat(table).contains("Loading").contains("OutsideLoadWindow");
        StringWriter plugin = new StringWriter();
        CommandLine kubectl = new CommandLine(new KubectlCommand(context -> new KubernetesClientBuilder()
                .withConfig(h.client.getConfiguration()).build()));
        kubectl.setOut(new PrintWriter(plugin)).setErr(new PrintWriter(plugin));
        assertThat(kubectl.execute("status", "items", "-n", OperatorHarness.NS)).as(plugin.toString()).isZero();
        assertThat(plugin.toString()).contains("Throttled=True (OutsideLoadWindow)");
        // The closing note's evidence, in the surefire report's output.
        System.out.println("$ kubectl get bfc items -n " + OperatorHarness.NS + "\n" + table
                + "\n\n$ kubectl backfill status items -n " + OperatorHarness.NS + "\n" + plugin);

        BackfillCampaign lifted = h.get("items");
        lifted.getSpec().getThrottle().setWindows(null);
        h.client.resource(lifted).update();
        h.awaitPhase("items", CampaignPhase.HandoffCommitted, Duration.ofSeconds(90));

        BackfillCampaignStatus done = h.status("items");
        assertThat(done.getRunKey()).as("a throttle change never changes the identity").isEqualTo(runKey);
        assertThat(ItemsTable.rows(h.db.target)).isEqualTo(ItemsTable.rows(h.db.source));
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'committed'"))
                .isEqualTo(8);
        assertThat(h.db.target.queryForLong("SELECT count(*) FROM backfill_state.campaign WHERE claim_pause IS NULL"))
                .as("the pause cleared").isEqualTo(1);
    }
}
