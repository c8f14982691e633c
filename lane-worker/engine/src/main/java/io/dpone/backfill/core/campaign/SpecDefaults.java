package io.dpone.backfill.core.campaign;

/**
 * Fills in the reference design's defaults. The result is the normalised spec that digests are computed over,
 * so a default written out explicitly and a default left out give the same campaign identity.
 */
public final class SpecDefaults {
    private SpecDefaults() {
    }

    /** Returns a normalised deep copy; the argument is not modified. Assumes structural validation passed. */
    public static BackfillCampaignSpec apply(BackfillCampaignSpec given) {
        BackfillCampaignSpec s = given.copy();
        if (s.getSource().getType() == null) {
            s.getSource().setType(SourceType.POSTGRES);
        }
        if (s.getSource().getSchema() == null) {
            s.getSource().setSchema("public");
        }
        if (s.getTarget().getSchema() == null) {
            s.getTarget().setSchema(s.getTarget().getType().defaultSchema());
        }
        if (s.getChunk().getBuckets() == null) {
            s.getChunk().setBuckets(ChunkSpec.DEFAULT_BUCKETS);
        }
        if (s.getParallelWorkers() == null) {
            s.setParallelWorkers(BackfillCampaignSpec.DEFAULT_PARALLEL_WORKERS);
        }
        if (s.getInnerMode() == null) {
            s.setInnerMode(InnerMode.INCREMENTAL_APPEND);
        }
        if (s.getOnlyNewRows() == null) {
            s.setOnlyNewRows(false);
        }
        if (s.getRetryPolicy() == null) {
            s.setRetryPolicy(RetryPolicy.NON_COMMITTED);
        }
        if (s.getMaxChunkAttempts() == null) {
            s.setMaxChunkAttempts(s.getRetryPolicy() == RetryPolicy.NONE ? 1 : BackfillCampaignSpec.DEFAULT_MAX_CHUNK_ATTEMPTS);
        }
        StateSpec state = s.getState() == null ? new StateSpec() : s.getState();
        if (state.getBackend() == null) {
            state.setBackend(StateBackend.AUDIT_SCHEMA);
        }
        if (state.getSchema() == null) {
            state.setSchema(StateSpec.DEFAULT_SCHEMA);
        }
        if (state.getRequireDistributedLock() == null) {
            state.setRequireDistributedLock(true);
        }
        s.setState(state);
        PublicationSpec publication = s.getPublication() == null ? new PublicationSpec() : s.getPublication();
        if (publication.getMode() == null) {
            publication.setMode(PublicationMode.DIRECT);
        }
        if (publication.getRetainBackup() == null) {
            publication.setRetainBackup(true);
        }
        if (publication.getArtifactScope() == null) {
            publication.setArtifactScope(ArtifactScope.STABLE);
        }
        // The default check is left absent, not filled in: a campaign written before the field keeps its run key.
        if (publication.getVerify() == PublicationVerify.CONTENT) {
            publication.setVerify(null);
        }
        if (publication.getApproval() == ApprovalMode.AUTOMATIC) {
            publication.setApproval(null);
        }
        s.setPublication(publication);
        LaneSpec lane = s.getLane() == null ? new LaneSpec() : s.getLane();
        if (lane.getMaxPodFailures() == null) {
            lane.setMaxPodFailures(LaneSpec.DEFAULT_MAX_POD_FAILURES);
        }
        s.setLane(lane);
        // none is left absent, as verify and approval: a campaign written before the field keeps its run key.
        ReconcileSpec reconcile = s.getReconcile();
        if (reconcile != null && (reconcile.getMode() == null || reconcile.getMode() == ReconcileMode.NONE)) {
            s.setReconcile(null);
        } else if (reconcile != null && reconcile.getMode() == ReconcileMode.UNTIL && reconcile.getMaxPasses() == null) {
            reconcile.setMaxPasses(ReconcileSpec.DEFAULT_MAX_PASSES);
        }
        if (s.getSuspend() == null) {
            s.setSuspend(false);
        }
        return s;
    }
}
