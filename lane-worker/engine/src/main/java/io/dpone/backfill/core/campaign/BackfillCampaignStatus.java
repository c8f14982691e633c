package io.dpone.backfill.core.campaign;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The status: a bounded projection of the ledger (no per-chunk lists), written only by the operator and
 * printed by the CLI's {@code status}.
 */
public class BackfillCampaignStatus {
    private CampaignPhase phase;
    private Long observedGeneration;
    private List<CampaignCondition> conditions = new ArrayList<>();
    private String runKey;
    private String planDigest;
    private String configDigest;
    private CampaignProgress progress;
    private PublicationStatus publication;
    private HandoffStatus handoff;
    private String recommendedAction;
    private PreflightStatus preflight;
    private ThrottleStatus throttle;
    private SourceReadStatus sourceReads;
    private ReconciliationStatus reconciliation;

    public CampaignPhase getPhase() {
        return phase;
    }

    public void setPhase(CampaignPhase phase) {
        this.phase = phase;
    }

    public Long getObservedGeneration() {
        return observedGeneration;
    }

    public void setObservedGeneration(Long observedGeneration) {
        this.observedGeneration = observedGeneration;
    }

    public List<CampaignCondition> getConditions() {
        return conditions;
    }

    public void setConditions(List<CampaignCondition> conditions) {
        this.conditions = conditions;
    }

    public String getRunKey() {
        return runKey;
    }

    public void setRunKey(String runKey) {
        this.runKey = runKey;
    }

    public String getPlanDigest() {
        return planDigest;
    }

    public void setPlanDigest(String planDigest) {
        this.planDigest = planDigest;
    }

    public String getConfigDigest() {
        return configDigest;
    }

    public void setConfigDigest(String configDigest) {
        this.configDigest = configDigest;
    }

    public CampaignProgress getProgress() {
        return progress;
    }

    public void setProgress(CampaignProgress progress) {
        this.progress = progress;
    }

    public PublicationStatus getPublication() {
        return publication;
    }

    public void setPublication(PublicationStatus publication) {
        this.publication = publication;
    }

    public HandoffStatus getHandoff() {
        return handoff;
    }

    public void setHandoff(HandoffStatus handoff) {
        this.handoff = handoff;
    }

    public String getRecommendedAction() {
        return recommendedAction;
    }

    public void setRecommendedAction(String recommendedAction) {
        this.recommendedAction = recommendedAction;
    }

    public PreflightStatus getPreflight() {
        return preflight;
    }

    public void setPreflight(PreflightStatus preflight) {
        this.preflight = preflight;
    }

    /** The passes after publication (issue 38); absent until the first pass began. */
    public ReconciliationStatus getReconciliation() {
        return reconciliation;
    }

    public void setReconciliation(ReconciliationStatus reconciliation) {
        this.reconciliation = reconciliation;
    }

    public ThrottleStatus getThrottle() {
        return throttle;
    }

    public void setThrottle(ThrottleStatus throttle) {
        this.throttle = throttle;
    }

    /** How many times the campaign reads its source, as predicted at preparation (ADR 0055); null before. */
    public SourceReadStatus getSourceReads() {
        return sourceReads;
    }

    public void setSourceReads(SourceReadStatus sourceReads) {
        this.sourceReads = sourceReads;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BackfillCampaignStatus s && phase == s.phase
                && Objects.equals(observedGeneration, s.observedGeneration) && Objects.equals(conditions, s.conditions)
                && Objects.equals(runKey, s.runKey) && Objects.equals(planDigest, s.planDigest)
                && Objects.equals(configDigest, s.configDigest) && Objects.equals(progress, s.progress)
                && Objects.equals(publication, s.publication) && Objects.equals(handoff, s.handoff)
                && Objects.equals(recommendedAction, s.recommendedAction) && Objects.equals(preflight, s.preflight)
                && Objects.equals(throttle, s.throttle) && Objects.equals(sourceReads, s.sourceReads)
                && Objects.equals(reconciliation, s.reconciliation);
    }

    @Override
    public int hashCode() {
        return Objects.hash(phase, observedGeneration, conditions, runKey, planDigest, configDigest, progress,
                publication, handoff, recommendedAction, preflight, throttle, sourceReads, reconciliation);
    }
}
