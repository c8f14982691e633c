package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.dpone.backfill.core.campaign.rule.Max;
import io.dpone.backfill.core.campaign.rule.Min;
import io.dpone.backfill.core.campaign.rule.Pattern;
import io.dpone.backfill.core.campaign.rule.Required;
import io.dpone.backfill.core.campaign.rule.Size;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The campaign spec: every field of the reference manifest, camelCase. One class serves the CLI's campaign
 * files and the operator's custom resource. Fields are nullable so that validation can tell "absent" from
 * "given"; {@link SpecDefaults} fills in defaults. The CRD's immutability rule sits on the custom resource's root
 * (operator's CampaignRules): it depends on the status, which a rule on the spec cannot see.
 */
@JsonPropertyOrder({"backfillId", "source", "target", "uniqueKey", "chunk", "parallelWorkers", "innerMode",
        "onlyNewRows", "retryPolicy", "maxChunkAttempts", "state", "publication", "columns", "lane", "throttle", "reconcile", "suspend"})
public class BackfillCampaignSpec {
    public static final String BACKFILL_ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$";
    public static final int MAX_PARALLEL_WORKERS = 64;
    public static final int DEFAULT_PARALLEL_WORKERS = 4;
    public static final int MAX_UNIQUE_KEY_COLUMNS = 16;
    public static final int MAX_CHUNK_ATTEMPTS = 100;
    public static final int DEFAULT_MAX_CHUNK_ATTEMPTS = 5;

    @Required
    @Pattern(BACKFILL_ID_PATTERN)
    @JsonPropertyDescription("Campaign identity; a changed plan or policy needs a new backfillId.")
    private String backfillId;
    @Required
    private SourceSpec source;
    @Required
    private TargetSpec target;
    @Required
    @Size(min = 1, max = MAX_UNIQUE_KEY_COLUMNS)
    @JsonPropertyDescription("Columns that identify a row; validated for nulls and duplicates before publication.")
    private List<String> uniqueKey;
    @Required
    private ChunkSpec chunk;
    @Min(1)
    @Max(MAX_PARALLEL_WORKERS)
    @JsonPropertyDescription("Lanes (pods) that load chunks in parallel (1..64, default 4).")
    private Integer parallelWorkers;
    @JsonPropertyDescription("incremental_append (the only initial-load mode).")
    private InnerMode innerMode;
    @JsonPropertyDescription("Must be false for an initial load (default false).")
    private Boolean onlyNewRows;
    @JsonPropertyDescription("non_committed (default): failed chunks are retried, committed ones never; none: no retry.")
    private RetryPolicy retryPolicy;
    @Min(1)
    @Max(MAX_CHUNK_ATTEMPTS)
    @JsonPropertyDescription("Attempts per chunk before the campaign turns Recoverable (1..100, default 5).")
    private Integer maxChunkAttempts;
    private StateSpec state;
    private PublicationSpec publication;
    @JsonPropertyDescription("Which source column loads which target column: explicit pairs (map) and a naming rule"
            + " (default: the same name).")
    private ColumnsSpec columns;
    private LaneSpec lane;
    @JsonPropertyDescription("A rate ceiling shared by the campaign's lanes; can change at any time and never changes"
            + " the campaign's identity.")
    private ThrottleSpec throttle;
    @JsonPropertyDescription("Reconciliation passes after publication, before the handoff (default none); the handoff"
            + " then carries the last pass's anchor.")
    private ReconcileSpec reconcile;
    @JsonPropertyDescription("true pauses: no new chunk claims, running chunks drain. Can change at any time.")
    private Boolean suspend;

    public String getBackfillId() {
        return backfillId;
    }

    public void setBackfillId(String backfillId) {
        this.backfillId = backfillId;
    }

    public SourceSpec getSource() {
        return source;
    }

    public void setSource(SourceSpec source) {
        this.source = source;
    }

    public TargetSpec getTarget() {
        return target;
    }

    public void setTarget(TargetSpec target) {
        this.target = target;
    }

    public List<String> getUniqueKey() {
        return uniqueKey;
    }

    public void setUniqueKey(List<String> uniqueKey) {
        this.uniqueKey = uniqueKey;
    }

    public ChunkSpec getChunk() {
        return chunk;
    }

    public void setChunk(ChunkSpec chunk) {
        this.chunk = chunk;
    }

    public Integer getParallelWorkers() {
        return parallelWorkers;
    }

    public void setParallelWorkers(Integer parallelWorkers) {
        this.parallelWorkers = parallelWorkers;
    }

    public InnerMode getInnerMode() {
        return innerMode;
    }

    public void setInnerMode(InnerMode innerMode) {
        this.innerMode = innerMode;
    }

    public Boolean getOnlyNewRows() {
        return onlyNewRows;
    }

    public void setOnlyNewRows(Boolean onlyNewRows) {
        this.onlyNewRows = onlyNewRows;
    }

    public RetryPolicy getRetryPolicy() {
        return retryPolicy;
    }

    public void setRetryPolicy(RetryPolicy retryPolicy) {
        this.retryPolicy = retryPolicy;
    }

    public Integer getMaxChunkAttempts() {
        return maxChunkAttempts;
    }

    public void setMaxChunkAttempts(Integer maxChunkAttempts) {
        this.maxChunkAttempts = maxChunkAttempts;
    }

    public StateSpec getState() {
        return state;
    }

    public void setState(StateSpec state) {
        this.state = state;
    }

    public PublicationSpec getPublication() {
        return publication;
    }

    public void setPublication(PublicationSpec publication) {
        this.publication = publication;
    }

    public LaneSpec getLane() {
        return lane;
    }

    public void setLane(LaneSpec lane) {
        this.lane = lane;
    }

    public ColumnsSpec getColumns() {
        return columns;
    }

    public void setColumns(ColumnsSpec columns) {
        this.columns = columns;
    }

    /** The column mapping in force: the same names when {@code columns} is absent. */
    public ColumnMapping columnMapping() {
        return ColumnMapping.of(columns);
    }

    public ThrottleSpec getThrottle() {
        return throttle;
    }

    public void setThrottle(ThrottleSpec throttle) {
        this.throttle = throttle;
    }

    public ReconcileSpec getReconcile() {
        return reconcile;
    }

    public void setReconcile(ReconcileSpec reconcile) {
        this.reconcile = reconcile;
    }

    /** The passes in force: off when {@code reconcile} or its mode is absent. */
    public ReconcileMode reconcileMode() {
        return reconcile == null || reconcile.getMode() == null ? ReconcileMode.NONE : reconcile.getMode();
    }

    public Boolean getSuspend() {
        return suspend;
    }

    public void setSuspend(Boolean suspend) {
        this.suspend = suspend;
    }

    /** A deep copy, so normalisation never mutates what a caller (or an informer cache) holds. */
    public BackfillCampaignSpec copy() {
        BackfillCampaignSpec c = new BackfillCampaignSpec();
        c.backfillId = backfillId;
        c.source = source == null ? null : source.copy();
        c.target = target == null ? null : target.copy();
        c.uniqueKey = uniqueKey == null ? null : new ArrayList<>(uniqueKey);
        c.chunk = chunk == null ? null : chunk.copy();
        c.parallelWorkers = parallelWorkers;
        c.innerMode = innerMode;
        c.onlyNewRows = onlyNewRows;
        c.retryPolicy = retryPolicy;
        c.maxChunkAttempts = maxChunkAttempts;
        c.state = state == null ? null : state.copy();
        c.publication = publication == null ? null : publication.copy();
        c.columns = columns == null ? null : columns.copy();
        c.lane = lane == null ? null : lane.copy();
        c.throttle = throttle == null ? null : throttle.copy();
        c.reconcile = reconcile == null ? null : reconcile.copy();
        c.suspend = suspend;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BackfillCampaignSpec s && Objects.equals(backfillId, s.backfillId)
                && Objects.equals(source, s.source) && Objects.equals(target, s.target)
                && Objects.equals(uniqueKey, s.uniqueKey) && Objects.equals(chunk, s.chunk)
                && Objects.equals(parallelWorkers, s.parallelWorkers) && innerMode == s.innerMode
                && Objects.equals(onlyNewRows, s.onlyNewRows) && retryPolicy == s.retryPolicy
                && Objects.equals(maxChunkAttempts, s.maxChunkAttempts) && Objects.equals(state, s.state)
                && Objects.equals(publication, s.publication) && Objects.equals(columns, s.columns)
                && Objects.equals(lane, s.lane) && Objects.equals(throttle, s.throttle)
                && Objects.equals(reconcile, s.reconcile)
                && Objects.equals(suspend, s.suspend);
    }

    @Override
    public int hashCode() {
        return Objects.hash(backfillId, source, target, uniqueKey, chunk, parallelWorkers, innerMode, onlyNewRows,
                retryPolicy, maxChunkAttempts, state, publication, columns, lane, throttle, reconcile, suspend);
    }
}
