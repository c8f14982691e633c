package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Objects;

/**
 * Aggregate chunk counters, rate and ETA: bounded, never a per-chunk list. {@code chunks} and {@code eta} are
 * derived from the counters (written for printer columns, which cannot concatenate or format; ignored on read).
 */
@JsonIgnoreProperties(value = {"chunks", "eta"}, allowGetters = true)
public class CampaignProgress {
    private long totalChunks;
    private long pendingChunks;
    private long runningChunks;
    private long committedChunks;
    private long failedChunks;
    private long rowsExtracted;
    private long rowsLoaded;
    private double rowsPerSecond;
    private Long etaSeconds;
    private String etaBasis;

    public long getTotalChunks() {
        return totalChunks;
    }

    public void setTotalChunks(long totalChunks) {
        this.totalChunks = totalChunks;
    }

    public long getPendingChunks() {
        return pendingChunks;
    }

    public void setPendingChunks(long pendingChunks) {
        this.pendingChunks = pendingChunks;
    }

    public long getRunningChunks() {
        return runningChunks;
    }

    public void setRunningChunks(long runningChunks) {
        this.runningChunks = runningChunks;
    }

    public long getCommittedChunks() {
        return committedChunks;
    }

    public void setCommittedChunks(long committedChunks) {
        this.committedChunks = committedChunks;
    }

    public long getFailedChunks() {
        return failedChunks;
    }

    public void setFailedChunks(long failedChunks) {
        this.failedChunks = failedChunks;
    }

    public long getRowsExtracted() {
        return rowsExtracted;
    }

    public void setRowsExtracted(long rowsExtracted) {
        this.rowsExtracted = rowsExtracted;
    }

    public long getRowsLoaded() {
        return rowsLoaded;
    }

    public void setRowsLoaded(long rowsLoaded) {
        this.rowsLoaded = rowsLoaded;
    }

    public double getRowsPerSecond() {
        return rowsPerSecond;
    }

    public void setRowsPerSecond(double rowsPerSecond) {
        this.rowsPerSecond = rowsPerSecond;
    }

    public Long getEtaSeconds() {
        return etaSeconds;
    }

    public void setEtaSeconds(Long etaSeconds) {
        this.etaSeconds = etaSeconds;
    }

    /** What the ETA rests on: estimated rows remaining (and the estimate's source), or committed chunks' average. */
    @JsonPropertyDescription("what etaSeconds rests on: estimated rows remaining with the source of the estimate"
            + " (pg_stats histogram, a bounded sample), or the average rows of committed chunks when no estimate exists")
    public String getEtaBasis() {
        return etaBasis;
    }

    public void setEtaBasis(String etaBasis) {
        this.etaBasis = etaBasis;
    }

    /** {@code committed/total}, e.g. {@code 12/64}: one printer column instead of two. */
    @JsonPropertyDescription("committed/total chunks, e.g. 12/64 (derived)")
    public String getChunks() {
        return committedChunks + "/" + totalChunks;
    }

    /** The ETA for people, e.g. {@code 8m12s}; null while unknown. */
    @JsonPropertyDescription("etaSeconds for people, e.g. 8m12s (derived)")
    public String getEta() {
        return EtaText.of(etaSeconds);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CampaignProgress p && totalChunks == p.totalChunks && pendingChunks == p.pendingChunks
                && runningChunks == p.runningChunks && committedChunks == p.committedChunks
                && failedChunks == p.failedChunks && rowsExtracted == p.rowsExtracted && rowsLoaded == p.rowsLoaded
                && Double.compare(rowsPerSecond, p.rowsPerSecond) == 0 && Objects.equals(etaSeconds, p.etaSeconds)
                && Objects.equals(etaBasis, p.etaBasis);
    }

    @Override
    public int hashCode() {
        return Objects.hash(totalChunks, pendingChunks, runningChunks, committedChunks, failedChunks, rowsExtracted,
                rowsLoaded, rowsPerSecond, etaSeconds, etaBasis);
    }
}
