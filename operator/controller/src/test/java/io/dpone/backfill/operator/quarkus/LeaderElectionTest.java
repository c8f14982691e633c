package io.dpone.backfill.operator.quarkus;

import io.dpone.backfill.core.campaign.ResourceAmounts;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.operator.config.OperatorConfig;
import io.dpone.backfill.operator.config.OperatorSettings;
import io.javaoperatorsdk.operator.api.config.LeaderElectionConfiguration;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The prod profile's leader election builds (the packaged operator starts); JOSDK itself never exits (its
 * exitOnStopLeading would call System.exit from Operator.stop() inside the shutdown hook: JOSDK 5.3.2
 * LeaderElectionManager.stopLeading), our Leadership callbacks decide (LeaderElectionIT: a deposed leader exits).
 */
class LeaderElectionTest {
    @Test
    void theProdLeaderElectionBuildsWithTheInstanceAsIdentityAndLeavesExitingToLeadership() {
        OperatorConfig config = new OperatorConfig() {
            public Optional<String> instanceId() {
                return Optional.of("backfill-operator-0");
            }

            public Duration activePoll() {
                return Duration.ofSeconds(5);
            }

            public Duration progressInterval() {
                return Duration.ofSeconds(15);
            }

            public Lane lane() {
                return null;
            }

            public Optional<String> leaderElectionNamespace() {
                return Optional.of("backfill-system");
            }

            public String leaderElectionLeaseName() {
                return "backfill-operator-leader";
            }
        };
        OperatorSettings settings = new OperatorSettings("backfill-operator-0", EngineTimings.DEFAULTS,
                new OperatorSettings.LaneDefaults("lane:1", "IfNotPresent", List.of("backfill"), new ResourceAmounts("1", "1Gi"),
                        new ResourceAmounts("1", "1Gi"), null, 65532), Map.of(), Duration.ofSeconds(5), Duration.ofSeconds(15));

        Leadership leadership = new Leadership(code -> {
            throw new AssertionError("no exit expected");
        });
        LeaderElectionConfiguration election = new LeaderElection().leaderElection(config, settings, leadership);

        assertThat(election.getLeaseName()).isEqualTo("backfill-operator-leader");
        assertThat(election.getLeaseNamespace()).contains("backfill-system");
        assertThat(election.getIdentity()).contains("backfill-operator-0");
        assertThat(election.isExitOnStopLeading()).isFalse();
        assertThat(election.getLeaderCallbacks()).isPresent();
        assertThat(election.getLeaseDuration()).isEqualTo(LeaderElectionConfiguration.LEASE_DURATION_DEFAULT_VALUE);
    }
}
