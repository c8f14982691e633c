package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.dpone.backfill.core.campaign.rule.Max;
import io.dpone.backfill.core.campaign.rule.Min;
import io.dpone.backfill.core.campaign.rule.Required;
import io.dpone.backfill.core.campaign.rule.Size;

import java.util.Objects;

/** How the source key space is cut into immutable chunks. */
public class ChunkSpec {
    /** Documented upper bound on buckets: keeps the ledger, the plan digest and planning time bounded. */
    public static final int MAX_BUCKETS = 16_384;
    public static final int DEFAULT_BUCKETS = 64;

    @Size(min = 1, max = 63)
    @JsonPropertyDescription("uuid and integer kinds (required there): the NOT NULL source column the ranges are cut on."
            + " Must be absent for kind physical, whose ranges are heap blocks.")
    private String column;
    @Required
    @JsonPropertyDescription("uuid (full 128-bit space of chunk.column), integer (lowerBound..upperBound of chunk.column, open-ended"
            + " ends) or physical (block ranges of the source heap planned at preparation, PostgreSQL 14+; rows changed"
            + " after the XMin anchor are left to incremental sync).")
    private ChunkKind kind;
    @Min(1)
    @Max(MAX_BUCKETS)
    @JsonPropertyDescription("Number of chunks (1..16384, default 64).")
    private Integer buckets;
    @JsonPropertyDescription("integer kind only: planned lowest key; keys below land in the first chunk.")
    private Long lowerBound;
    @JsonPropertyDescription("integer kind only: planned highest key; keys above land in the last chunk.")
    private Long upperBound;

    public String getColumn() {
        return column;
    }

    public void setColumn(String column) {
        this.column = column;
    }

    public ChunkKind getKind() {
        return kind;
    }

    public void setKind(ChunkKind kind) {
        this.kind = kind;
    }

    public Integer getBuckets() {
        return buckets;
    }

    public void setBuckets(Integer buckets) {
        this.buckets = buckets;
    }

    public Long getLowerBound() {
        return lowerBound;
    }

    public void setLowerBound(Long lowerBound) {
        this.lowerBound = lowerBound;
    }

    public Long getUpperBound() {
        return upperBound;
    }

    public void setUpperBound(Long upperBound) {
        this.upperBound = upperBound;
    }

    ChunkSpec copy() {
        ChunkSpec c = new ChunkSpec();
        c.column = column;
        c.kind = kind;
        c.buckets = buckets;
        c.lowerBound = lowerBound;
        c.upperBound = upperBound;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkSpec c && Objects.equals(column, c.column) && kind == c.kind
                && Objects.equals(buckets, c.buckets) && Objects.equals(lowerBound, c.lowerBound)
                && Objects.equals(upperBound, c.upperBound);
    }

    @Override
    public int hashCode() {
        return Objects.hash(column, kind, buckets, lowerBound, upperBound);
    }
}
