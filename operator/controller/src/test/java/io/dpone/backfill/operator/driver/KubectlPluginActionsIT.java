package io.dpone.backfill.operator.driver;

import io.dpone.backfill.cli.BackfillCli;
import io.dpone.backfill.cli.kubectl.KubectlCommand;
import io.dpone.backfill.lane.LaneMain;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.support.MockCluster;
import io.dpone.backfill.operator.support.PgCampaign;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kubectl plugin (lane-worker, which knows no operator class) writes exactly what this operator reads: its
 * suspend, requeue and rollback requests come out of {@link OperatorActions} and {@code spec.suspend} as sent, and a
 * request the operator has handled is not handled again when the plugin re-applies it.
 */
class KubectlPluginActionsIT {
    static final String NS = "backfill";
    final MockCluster cluster = new MockCluster(NS);

    @AfterEach
    void close() {
        cluster.close();
    }

    private void kubectlBackfill(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cli = LaneMain.withFailureHandling(new CommandLine(new KubectlCommand(context -> cluster.server.createClient())));
        cli.setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(err));
        assertThat(cli.execute(args)).as(err.toString()).isZero();
    }

    private BackfillCampaign campaign() {
        return cluster.client.resources(BackfillCampaign.class).inNamespace(NS).withName("items").get();
    }

    @Test
    void suspendAndResumeAreTheSpecSuspendTheOperatorReads() {
        cluster.client.resource(PgCampaign.campaign(NS, "items", "items_v1", 8, 1, "")).create();
        kubectlBackfill("suspend", "items", "-n", NS);
        assertThat(campaign().getSpec().getSuspend()).isTrue();
        kubectlBackfill("resume", "items", "-n", NS);
        assertThat(campaign().getSpec().getSuspend()).isFalse();
        assertThat(campaign().getSpec().getBackfillId()).isEqualTo("items_v1");
    }

    @Test
    void requeueAndRollbackArePendingActionsUntilTheOperatorMarksThemDone() {
        cluster.client.resource(PgCampaign.campaign(NS, "items", "items_v1", 8, 1, "")).create();
        kubectlBackfill("requeue", "items", "-n", NS, "--token", "t-1");
        assertThat(OperatorActions.requeueToken(campaign())).isEqualTo("t-1");
        kubectlBackfill("rollback", "items", "-n", NS, "--reason", "wrong snapshot");
        assertThat(OperatorActions.rollbackReason(campaign())).isEqualTo("wrong snapshot");

        OperatorActions.markDone(cluster.client, campaign(), OperatorActions.REQUEUE_FAILED);
        OperatorActions.markDone(cluster.client, campaign(), OperatorActions.ROLLBACK);
        kubectlBackfill("requeue", "items", "-n", NS, "--token", "t-1");
        kubectlBackfill("rollback", "items", "-n", NS, "--reason", "wrong snapshot");
        assertThat(OperatorActions.anyPending(campaign())).as("re-applied requests are not handled twice").isFalse();

        kubectlBackfill("requeue", "items", "-n", NS, "--token", "t-2");
        assertThat(OperatorActions.requeueToken(campaign())).as("a new token is a new request").isEqualTo("t-2");
    }
}
