package io.dpone.backfill.core.campaign;

import io.dpone.backfill.core.campaign.rule.Size;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.dpone.backfill.core.campaign.rule.Max;
import io.dpone.backfill.core.campaign.rule.Min;

import java.util.Objects;

/**
 * How fast a running campaign may read its source (issue 28): a ceiling for the campaign as a whole, shared by its
 * lanes. The one part of the spec that may change while the campaign runs besides {@code suspend} and {@code lane}:
 * it steers how fast rows move, never which rows or where, so it stays out of the campaign's identity
 * ({@link io.dpone.backfill.core.plan.CampaignIdentity#configDigest}).
 */
@JsonPropertyOrder({"rowsPerSecond", "bytesPerSecond", "lanes", "sourceGuard", "windows"})
public class ThrottleSpec {
    /** Far above any source we have measured; a bound keeps a typo from meaning "no ceiling" by overflow. */
    public static final long MAX_PER_SECOND = 1_000_000_000_000L;
    /** Load windows a campaign may list: a few a day is all a change calendar needs. */
    public static final int MAX_WINDOWS = 8;

    @Min(1)
    @Max(MAX_PER_SECOND)
    @JsonPropertyDescription("Rows per second the campaign's lanes read together at most (each lane paces itself to"
            + " its share). Absent: no row ceiling. Can change at any time.")
    private Long rowsPerSecond;
    @Min(1)
    @Max(MAX_PER_SECOND)
    @JsonPropertyDescription("Row bytes per second (as the lanes move them) the campaign's lanes read together at"
            + " most. Absent: no byte ceiling. Can change at any time.")
    private Long bytesPerSecond;
    @Min(1)
    @Max(BackfillCampaignSpec.MAX_PARALLEL_WORKERS)
    @JsonPropertyDescription("Lanes that load now, at most parallelWorkers (default parallelWorkers). Lowered, the"
            + " lanes past it finish their chunk and stop; raised, the drivers start lanes again. Chunks and the run"
            + " key never change. Can change at any time.")
    private Integer lanes;
    @JsonPropertyDescription("Pause claiming new chunks while the source is busy; can change at any time.")
    private SourceGuardSpec sourceGuard;
    @Size(max = MAX_WINDOWS)
    @JsonPropertyDescription("Daily windows in which lanes may claim chunks (from, to, timeZone each); outside every"
            + " one they claim nothing and running chunks finish. Absent: at any time. Can change at any time.")
    private java.util.List<PublicationWindowSpec> windows;

    public java.util.List<PublicationWindowSpec> getWindows() {
        return windows;
    }

    public void setWindows(java.util.List<PublicationWindowSpec> windows) {
        this.windows = windows;
    }

    public Integer getLanes() {
        return lanes;
    }

    public void setLanes(Integer lanes) {
        this.lanes = lanes;
    }

    public SourceGuardSpec getSourceGuard() {
        return sourceGuard;
    }

    public void setSourceGuard(SourceGuardSpec sourceGuard) {
        this.sourceGuard = sourceGuard;
    }

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

    ThrottleSpec copy() {
        ThrottleSpec c = new ThrottleSpec();
        c.rowsPerSecond = rowsPerSecond;
        c.bytesPerSecond = bytesPerSecond;
        c.lanes = lanes;
        c.sourceGuard = sourceGuard == null ? null : sourceGuard.copy();
        c.windows = windows == null ? null : windows.stream().map(PublicationWindowSpec::copy).collect(
                java.util.stream.Collectors.toCollection(java.util.ArrayList::new));
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ThrottleSpec t && Objects.equals(rowsPerSecond, t.rowsPerSecond)
                && Objects.equals(bytesPerSecond, t.bytesPerSecond) && Objects.equals(lanes, t.lanes)
                && Objects.equals(sourceGuard, t.sourceGuard)
                && Objects.equals(windows, t.windows);
    }

    @Override
    public int hashCode() {
        return Objects.hash(rowsPerSecond, bytesPerSecond, lanes, sourceGuard, windows);
    }
}
