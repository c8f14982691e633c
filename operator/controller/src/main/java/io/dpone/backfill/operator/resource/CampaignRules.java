package io.dpone.backfill.operator.resource;

/**
 * The CEL rules ({@code x-kubernetes-validations}) the CRD puts on the whole {@link BackfillCampaign}, written here
 * once so the annotations, the tests and the docs quote the same text (ADR 0030).
 * <ul>
 *     <li>The name rule mirrors core's campaign-name check (a lowercase RFC 1123 label of at most 45 characters):
 *     the API server itself only asks a custom resource's name to be a DNS subdomain, so {@code orders.v1} would
 *     be admitted and then refused by the operator.</li>
 *     <li>The plan rule makes the spec immutable (except {@code suspend}, {@code lane} and {@code throttle}) only once the campaign is
 *     planned, as the status says: a run key that is not the one of a start pre-flight refused. It sits on the root
 *     because a rule on {@code spec} cannot see {@code status}. A campaign that was refused (invalid, pre-flight
 *     failed) or not yet seen by the operator can be corrected in place, which is what GitOps tools do.</li>
 * </ul>
 */
public final class CampaignRules {
    /** Same bound as core's validator puts on campaign names (room for the lane pod suffix within 63). */
    public static final int MAX_NAME_LENGTH = 45;
    public static final String NAME_RULE = "self.metadata.name.size() <= " + MAX_NAME_LENGTH
            + " && self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')";
    public static final String NAME_MESSAGE = "metadata.name must be a lowercase RFC 1123 label (a-z, 0-9, '-') of at most "
            + MAX_NAME_LENGTH + " characters: lane pods are named <campaign>-lane-<n>-<attempt>";

    /** Planned, as the reconciler reads it: a run key in the status that pre-flight did not refuse. */
    public static final String PLANNED = "has(oldSelf.status) && has(oldSelf.status.runKey) && !(has(oldSelf.status.preflight)"
            + " && has(oldSelf.status.preflight.result) && oldSelf.status.preflight.result == 'failed')";
    /**
     * Everything but {@code suspend}, {@code lane} and {@code throttle} (issue 28: a rate ceiling changed while the
     * campaign runs) keeps its value once planned, optional fields included
     * (present stays present with the same value, absent stays absent). A constant: annotations need one.
     */
    public static final String PLAN_RULE = "!(" + PLANNED + ") || ("
            + "self.spec.backfillId == oldSelf.spec.backfillId"
            + " && self.spec.source == oldSelf.spec.source"
            + " && self.spec.target == oldSelf.spec.target"
            + " && self.spec.uniqueKey == oldSelf.spec.uniqueKey"
            + " && self.spec.chunk == oldSelf.spec.chunk"
            + " && (has(self.spec.parallelWorkers) ? has(oldSelf.spec.parallelWorkers) && self.spec.parallelWorkers == oldSelf.spec.parallelWorkers : !has(oldSelf.spec.parallelWorkers))"
            + " && (has(self.spec.innerMode) ? has(oldSelf.spec.innerMode) && self.spec.innerMode == oldSelf.spec.innerMode : !has(oldSelf.spec.innerMode))"
            + " && (has(self.spec.onlyNewRows) ? has(oldSelf.spec.onlyNewRows) && self.spec.onlyNewRows == oldSelf.spec.onlyNewRows : !has(oldSelf.spec.onlyNewRows))"
            + " && (has(self.spec.retryPolicy) ? has(oldSelf.spec.retryPolicy) && self.spec.retryPolicy == oldSelf.spec.retryPolicy : !has(oldSelf.spec.retryPolicy))"
            + " && (has(self.spec.maxChunkAttempts) ? has(oldSelf.spec.maxChunkAttempts) && self.spec.maxChunkAttempts == oldSelf.spec.maxChunkAttempts : !has(oldSelf.spec.maxChunkAttempts))"
            + " && (has(self.spec.state) ? has(oldSelf.spec.state) && self.spec.state == oldSelf.spec.state : !has(oldSelf.spec.state))"
            + " && (has(self.spec.publication) ? has(oldSelf.spec.publication) && self.spec.publication == oldSelf.spec.publication : !has(oldSelf.spec.publication))"
            + " && (has(self.spec.columns) ? has(oldSelf.spec.columns) && self.spec.columns == oldSelf.spec.columns : !has(oldSelf.spec.columns))"
            + " && (has(self.spec.reconcile) ? has(oldSelf.spec.reconcile) && self.spec.reconcile == oldSelf.spec.reconcile : !has(oldSelf.spec.reconcile))"
            + ")";
    public static final String PLAN_MESSAGE = "the campaign is planned: its spec is immutable except suspend, lane and throttle;"
            + " a changed plan or policy needs a new BackfillCampaign with a new backfillId"
            + " (a campaign refused before planning can still be corrected)";

    /**
     * {@code spec.reconcile} (issue 38, ADR 0057) as core's validator reads it: {@code until} needs a stop rule besides
     * its pass limit; the bounds mean nothing to {@code once} or {@code none} and are refused there rather than ignored.
     */
    public static final String RECONCILE_RULE = "!has(self.spec.reconcile) || ((has(self.spec.reconcile.mode)"
            + " && self.spec.reconcile.mode == 'until')"
            + " ? (has(self.spec.reconcile.maxChangedRows) || has(self.spec.reconcile.deadline))"
            + " : !(has(self.spec.reconcile.maxChangedRows) || has(self.spec.reconcile.deadline)"
            + " || has(self.spec.reconcile.maxPasses)))";
    public static final String RECONCILE_MESSAGE = "spec.reconcile: mode until needs maxChangedRows, deadline or both;"
            + " maxChangedRows, deadline and maxPasses apply to mode until only";
    public static final String RECONCILE_FIELD = ".spec.reconcile";

    private CampaignRules() {
    }
}
