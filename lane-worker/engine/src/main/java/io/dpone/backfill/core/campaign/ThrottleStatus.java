package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.Objects;

/**
 * The rate ceiling in force (issue 28), as the ledger holds it, and whether it holds the lanes back. Present only
 * while a ceiling is in force; the current rate is {@code progress.rowsPerSecond}.
 */
@JsonPropertyOrder({"rowsPerSecond", "bytesPerSecond", "lanes", "reason", "message"})
public class ThrottleStatus {
    /** The lanes read at the row ceiling: they wait for it. */
    public static final String RATE_CEILING = "RateCeiling";
    /** The source guard pauses claims: the source is over a bound (issue 28). */
    public static final String SOURCE_GUARD = "SourceGuard";
    /** Outside every load window: no new claims (issue 28). */
    public static final String OUTSIDE_LOAD_WINDOW = "OutsideLoadWindow";
    /** A ceiling is in force, the lanes read below it. */
    public static final String BELOW_CEILING = "BelowCeiling";
    /** Only a byte ceiling is in force: the status does not measure bytes a second, so it cannot say. */
    public static final String BYTE_CEILING_UNMEASURED = "ByteCeilingUnmeasured";

    @JsonPropertyDescription("Rows per second the lanes read together at most (absent: no row ceiling).")
    private Long rowsPerSecond;
    @JsonPropertyDescription("Row bytes per second the lanes read together at most (absent: no byte ceiling).")
    private Long bytesPerSecond;
    @JsonPropertyDescription("Lanes sharing the ceiling.")
    private Integer lanes;
    @JsonPropertyDescription("RateCeiling (the lanes wait for the ceiling), SourceGuard (no new claims: the source is"
            + " busy), OutsideLoadWindow (no new claims until a load window opens), BelowCeiling or ByteCeilingUnmeasured.")
    private String reason;
    private String message;

    public Long getRowsPerSecond() {
        return rowsPerSecond;
    }

    public void setRowsPerSecond(Long rowsPerSecond) {
        this.rowsPerSecond = rowsPerSecond;
    }

    public Long getBytesPerSecond() {
        return bytesPerSecond;
    }

    public void setBytesPerSecond(Long bytesPerSecond) {
        this.bytesPerSecond = bytesPerSecond;
    }

    public Integer getLanes() {
        return lanes;
    }

    public void setLanes(Integer lanes) {
        this.lanes = lanes;
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

    /** Whether the lanes wait now: for the ceiling, or for the source guard. */
    public boolean throttled() {
        return RATE_CEILING.equals(reason) || SOURCE_GUARD.equals(reason) || OUTSIDE_LOAD_WINDOW.equals(reason);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ThrottleStatus t && Objects.equals(rowsPerSecond, t.rowsPerSecond)
                && Objects.equals(bytesPerSecond, t.bytesPerSecond) && Objects.equals(lanes, t.lanes)
                && Objects.equals(reason, t.reason) && Objects.equals(message, t.message);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rowsPerSecond, bytesPerSecond, lanes, reason, message);
    }
}
