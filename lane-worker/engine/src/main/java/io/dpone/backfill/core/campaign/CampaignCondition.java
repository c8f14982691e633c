package io.dpone.backfill.core.campaign;

import java.util.Objects;

/** A status condition shaped like Kubernetes' metav1.Condition, without depending on Kubernetes types. */
public class CampaignCondition {
    private String type;
    private String status;
    private String reason;
    private String message;
    private String lastTransitionTime;
    private Long observedGeneration;

    public CampaignCondition() {
    }

    public CampaignCondition(String type, String status, String reason, String message, String lastTransitionTime,
                             Long observedGeneration) {
        this.type = type;
        this.status = status;
        this.reason = reason;
        this.message = message;
        this.lastTransitionTime = lastTransitionTime;
        this.observedGeneration = observedGeneration;
    }

    public String getType() {
        return type;
    }

    public void setType(String type) {
        this.type = type;
    }

    public String getStatus() {
        return status;
    }

    public void setStatus(String status) {
        this.status = status;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public String getMessage() {
        return message;
    }

    public void setMessage(String message) {
        this.message = message;
    }

    public String getLastTransitionTime() {
        return lastTransitionTime;
    }

    public void setLastTransitionTime(String lastTransitionTime) {
        this.lastTransitionTime = lastTransitionTime;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CampaignCondition c && Objects.equals(type, c.type) && Objects.equals(status, c.status)
                && Objects.equals(reason, c.reason) && Objects.equals(message, c.message)
                && Objects.equals(lastTransitionTime, c.lastTransitionTime)
                && Objects.equals(observedGeneration, c.observedGeneration);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, status, reason, message, lastTransitionTime, observedGeneration);
    }
}
