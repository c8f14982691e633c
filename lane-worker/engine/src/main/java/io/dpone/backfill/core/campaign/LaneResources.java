package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Objects;

/** Requests and limits of one lane pod; operator defaults apply to what is left out. */
public class LaneResources {
    @JsonPropertyDescription("Resources the scheduler reserves for each lane pod.")
    private ResourceAmounts requests;
    @JsonPropertyDescription("Upper bounds for each lane pod.")
    private ResourceAmounts limits;

    public ResourceAmounts getRequests() {
        return requests;
    }

    public void setRequests(ResourceAmounts requests) {
        this.requests = requests;
    }

    public ResourceAmounts getLimits() {
        return limits;
    }

    public void setLimits(ResourceAmounts limits) {
        this.limits = limits;
    }

    LaneResources copy() {
        LaneResources c = new LaneResources();
        c.requests = requests == null ? null : requests.copy();
        c.limits = limits == null ? null : limits.copy();
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LaneResources r && Objects.equals(requests, r.requests) && Objects.equals(limits, r.limits);
    }

    @Override
    public int hashCode() {
        return Objects.hash(requests, limits);
    }
}
