package io.dpone.backfill.operator.quarkus;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.operator.health.InformersReadiness;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.support.Await;
import io.dpone.backfill.operator.support.MockCluster;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.operator.support.TestOperator;
import io.dpone.backfill.operator.support.rbac.ApiRequest;
import io.dpone.backfill.operator.support.rbac.ChartRbac;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Leader election ON, against the mock API server, with the chart's RBAC enforced on every request the operators
 * make (MockCluster checks them when it closes; JOSDK's own pre-flight SelfSubjectRulesReview is answered from the
 * chart too). Short timings (3 s Lease, 2 s renew deadline, 250 ms retry) so the leader renews many times in seconds.
 * What a real API server does that the mock does not: authorize each request by RBAC (403 otherwise); Fabric8 7.5.2
 * renews with PATCH (kubernetes-client-api ResourceLock.update: JSON merge patch), which needs the verb patch.
 */
class LeaderElectionIT {
    private static final String NS = "backfill";
    private static final String LEASE = "backfill-operator-leader";

    /** One replica: its election, its Leadership (with a recorded exit instead of System.exit) and its operator. */
    private static final class Replica implements AutoCloseable {
        final List<Integer> exits = new CopyOnWriteArrayList<>();
        final Leadership leadership = new Leadership(exits::add);
        final TestOperator operator;
        private boolean closed;

        Replica(MockCluster cluster, String identity) {
            var election = LeaderElection.configuration(LEASE, ChartRbac.RELEASE_NAMESPACE, identity, leadership,
                    Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(250));
            operator = new TestOperator(cluster.client, NS, TestOperator.settings(identity), election);
        }

        HealthCheckResponse.Status readiness() {
            return new InformersReadiness(operator.operator(), leadership).call().getStatus();
        }

        /** SIGTERM: Quarkus tells Leadership first (LeaderElection.onStop), then QOSDK stops the operator. */
        @Override
        public void close() {
            if (!closed) {
                closed = true;
                leadership.shutdownStarted();
                operator.close();
            }
        }
    }

    private static MockCluster cluster() {
        MockCluster cluster = new MockCluster(NS);
        cluster.client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ChartRbac.RELEASE_NAMESPACE).endMetadata().build()).create();
        return cluster;
    }

    /**
     * Another identity takes the Lease. The leader renews it every few hundred milliseconds, so an edit can lose the
     * optimistic-concurrency race (409, as on a real API server): read again and retry, as any client must.
     */
    private static void takeLease(MockCluster cluster, String identity) {
        for (int attempt = 1; ; attempt++) {
            try {
                cluster.client.leases().inNamespace(ChartRbac.RELEASE_NAMESPACE).withName(LEASE).edit(l -> {
                    l.getSpec().setHolderIdentity(identity);
                    l.getSpec().setRenewTime(ZonedDateTime.now().plusSeconds(60));
                    l.getSpec().setLeaseDurationSeconds(60);
                    return l;
                });
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == 20) {
                    throw e;
                }
            }
        }
    }

    private static long leasePatches(MockCluster cluster) {
        return cluster.operatorRequests().stream().filter(r -> r.resource().equals("leases") && r.verb().equals("patch")).count();
    }

    private static String holder(MockCluster cluster) {
        Lease lease = cluster.client.leases().inNamespace(ChartRbac.RELEASE_NAMESPACE).withName(LEASE).get();
        return lease == null ? null : lease.getSpec().getHolderIdentity();
    }

    @Test
    void onlyTheLeaderIsReadyItRenewsByPatchUnderTheChartsRbacAndStopsOnShutdownWithoutExiting() throws Exception {
        try (MockCluster cluster = cluster()) {
            Replica a = new Replica(cluster, "operator-a");
            Await.until(Duration.ofSeconds(20), () -> a.leadership.leading(), () -> "operator-a never led; Lease holder " + holder(cluster));
            Replica b = new Replica(cluster, "operator-b");
            try {
                Await.until(Duration.ofSeconds(20), () -> b.operator.operator().getRuntimeInfo().isStarted(), () -> "the standby never started");
                // A standby's informers are started and healthy; it is still not Ready.
                assertThat(b.operator.operator().getRuntimeInfo().allEventSourcesAreHealthy()).isTrue();
                assertThat(b.readiness()).isEqualTo(HealthCheckResponse.Status.DOWN);
                Await.until(Duration.ofSeconds(20), () -> a.readiness() == HealthCheckResponse.Status.UP, () -> "the leader is not Ready");

                // The leader reconciles (a campaign the operator refuses before any database I/O).
                BackfillCampaign bad = PgCampaign.campaign(NS, "elected", "elected_v1", 8, 2, "  onlyNewRows: true\n");
                cluster.client.resource(bad).create();
                Await.until(Duration.ofSeconds(20), () -> {
                    BackfillCampaign c = cluster.client.resources(BackfillCampaign.class).inNamespace(NS).withName("elected").get();
                    return c.getStatus() != null && c.getStatus().getPhase() == CampaignPhase.Invalid;
                }, () -> "the leader did not reconcile the campaign");

                Await.until(Duration.ofSeconds(20), () -> leasePatches(cluster) >= 5, () -> "lease renewals: " + leasePatches(cluster));
                assertThat(holder(cluster)).isEqualTo("operator-a");
                assertThat(cluster.refusedByChartRbac()).isEmpty();

                // SIGTERM of the leader: it stops in time and does not exit (System.exit inside the shutdown hook would block
                // until SIGKILL); the standby takes over once the Lease expires (JOSDK 5.3.2 does not release it) and
                // becomes Ready.
                CompletableFuture<Void> stopping = CompletableFuture.runAsync(a::close);
                stopping.get(15, TimeUnit.SECONDS);
                assertThat(a.exits).isEmpty();
                assertThat(a.leadership.leading()).isFalse();
                Await.until(Duration.ofSeconds(10), () -> b.leadership.leading(), () -> "the standby never took over; holder " + holder(cluster));
                Await.until(Duration.ofSeconds(10), () -> b.readiness() == HealthCheckResponse.Status.UP, () -> "the new leader is not Ready");
            } finally {
                b.close();
                a.close();
            }
            assertThat(cluster.operatorRequests()).extracting(ApiRequest::verb).contains("get", "create", "patch", "list", "watch");
        }
    }

    @Test
    void aLeaderThatLosesItsLeaseWhileRunningExits() throws Exception {
        try (MockCluster cluster = cluster()) {
            Replica a = new Replica(cluster, "operator-a");
            try {
                Await.until(Duration.ofSeconds(20), () -> a.leadership.leading(), () -> "operator-a never led");
                // Another replica takes the Lease (as after a network partition longer than the renew deadline).
                takeLease(cluster, "operator-z");
                Await.until(Duration.ofSeconds(10), () -> !a.exits.isEmpty(), () -> "the deposed leader did not exit");
                assertThat(a.exits).containsExactly(1);
                assertThat(a.leadership.leading()).isFalse();
                assertThat(a.readiness()).isEqualTo(HealthCheckResponse.Status.DOWN);
            } finally {
                a.close();
            }
        }
    }
}
