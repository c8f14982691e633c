package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.dpone.backfill.core.campaign.rule.Max;
import io.dpone.backfill.core.campaign.rule.Min;

import java.util.Objects;

/**
 * When the source is too busy for new claims (issue 28): its replicas' lag, read on the primary, or its active
 * sessions over a bound pause claiming; claims resume once both are under {@link #RESUME_BELOW} of their bounds.
 */
@JsonPropertyOrder({"maxReplicaLagSeconds", "maxActiveSessions"})
public class SourceGuardSpec {
    /** Claims resume below this part of each bound: hysteresis, so a value near a bound does not flap. */
    public static final double RESUME_BELOW = 0.8;
    public static final int MAX_BOUND = 1_000_000;

    @Min(1)
    @Max(MAX_BOUND)
    @JsonPropertyDescription("Pause claiming while a replica of the source lags more than this many seconds"
            + " (pg_stat_replication on the primary); resume below 80% of it.")
    private Integer maxReplicaLagSeconds;
    @Min(1)
    @Max(MAX_BOUND)
    @JsonPropertyDescription("Pause claiming while the source has more active sessions than this (pg_stat_activity,"
            + " backfill's own sessions not counted); resume below 80% of it.")
    private Integer maxActiveSessions;

    public Integer getMaxReplicaLagSeconds() {
        return maxReplicaLagSeconds;
    }

    public void setMaxReplicaLagSeconds(Integer maxReplicaLagSeconds) {
        this.maxReplicaLagSeconds = maxReplicaLagSeconds;
    }

    public Integer getMaxActiveSessions() {
        return maxActiveSessions;
    }

    public void setMaxActiveSessions(Integer maxActiveSessions) {
        this.maxActiveSessions = maxActiveSessions;
    }

    SourceGuardSpec copy() {
        SourceGuardSpec c = new SourceGuardSpec();
        c.maxReplicaLagSeconds = maxReplicaLagSeconds;
        c.maxActiveSessions = maxActiveSessions;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SourceGuardSpec g && Objects.equals(maxReplicaLagSeconds, g.maxReplicaLagSeconds)
                && Objects.equals(maxActiveSessions, g.maxActiveSessions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(maxReplicaLagSeconds, maxActiveSessions);
    }
}
