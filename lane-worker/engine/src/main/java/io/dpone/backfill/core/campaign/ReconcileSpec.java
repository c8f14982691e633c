package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.dpone.backfill.core.campaign.rule.Max;
import io.dpone.backfill.core.campaign.rule.Min;
import io.dpone.backfill.core.campaign.rule.Pattern;
import io.dpone.backfill.core.campaign.rule.Size;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Reconciliation passes the drivers run after publication and before the handoff (issue 38, ADR 0057), so the
 * handoff carries the last pass's anchor. {@code until} always ends: at the latest after {@code maxPasses} passes.
 */
@JsonPropertyOrder({"mode", "maxChangedRows", "deadline", "maxPasses"})
public class ReconcileSpec {
    public static final int MAX_PASSES = 100;
    public static final int DEFAULT_MAX_PASSES = 5;
    public static final long MAX_CHANGED_ROWS = 1_000_000_000_000L;
    /**
     * Hours, minutes and seconds in this order (as Go and kubectl write durations): 90m, 2h, 1h30m. No look-ahead:
     * the API server checks patterns with Go's RE2; the minimum length keeps the empty text out.
     */
    public static final String DEADLINE_PATTERN = "^([0-9]{1,5}h)?([0-9]{1,7}m)?([0-9]{1,9}s)?$";
    /** A deadline longer than this is a typo, not a plan. */
    public static final Duration MAX_DEADLINE = Duration.ofDays(30);
    private static final java.util.regex.Pattern DEADLINE = java.util.regex.Pattern.compile(DEADLINE_PATTERN);

    @JsonPropertyDescription("none (default): hand off at the load's anchor; once: one reconciliation pass after"
            + " publication, then the handoff carries its anchor; until: passes until maxChangedRows or deadline says"
            + " stop, at most maxPasses.")
    private ReconcileMode mode;
    @Min(0)
    @Max(MAX_CHANGED_ROWS)
    @JsonPropertyDescription("until only: stop after a pass that upserted and deleted at most this many rows together"
            + " (0: a pass that changed nothing).")
    private Long maxChangedRows;
    @Pattern(DEADLINE_PATTERN)
    @Size(min = 2, max = 24)
    @JsonPropertyDescription("until only: start no pass once this long has passed since the first pass started, e.g."
            + " 30m, 2h, 1h30m (at most 30 days); the pass running then finishes.")
    private String deadline;
    @Min(1)
    @Max(MAX_PASSES)
    @JsonPropertyDescription("until only: passes at most (1..100, default 5), so reconciliation always ends.")
    private Integer maxPasses;

    /** The duration {@code text} names, or empty when it does not match {@link #DEADLINE_PATTERN}. */
    public static Optional<Duration> parseDeadline(String text) {
        if (text == null) {
            return Optional.empty();
        }
        java.util.regex.Matcher m = DEADLINE.matcher(text);
        if (!m.matches() || text.length() < 2) {
            return Optional.empty();
        }
        long seconds = part(m.group(1)) * 3600 + part(m.group(2)) * 60 + part(m.group(3));
        return Optional.of(Duration.ofSeconds(seconds));
    }

    private static long part(String group) {
        return group == null ? 0 : Long.parseLong(group.substring(0, group.length() - 1));
    }

    /** The deadline as a duration; empty when absent (validation refused a malformed one). */
    @JsonIgnore
    public Optional<Duration> deadlineDuration() {
        return parseDeadline(deadline);
    }

    public ReconcileMode getMode() {
        return mode;
    }

    public void setMode(ReconcileMode mode) {
        this.mode = mode;
    }

    public Long getMaxChangedRows() {
        return maxChangedRows;
    }

    public void setMaxChangedRows(Long maxChangedRows) {
        this.maxChangedRows = maxChangedRows;
    }

    public String getDeadline() {
        return deadline;
    }

    public void setDeadline(String deadline) {
        this.deadline = deadline;
    }

    public Integer getMaxPasses() {
        return maxPasses;
    }

    public void setMaxPasses(Integer maxPasses) {
        this.maxPasses = maxPasses;
    }

    ReconcileSpec copy() {
        ReconcileSpec c = new ReconcileSpec();
        c.mode = mode;
        c.maxChangedRows = maxChangedRows;
        c.deadline = deadline;
        c.maxPasses = maxPasses;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReconcileSpec r && mode == r.mode && Objects.equals(maxChangedRows, r.maxChangedRows)
                && Objects.equals(deadline, r.deadline) && Objects.equals(maxPasses, r.maxPasses);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, maxChangedRows, deadline, maxPasses);
    }
}
