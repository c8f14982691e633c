package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.Objects;

/**
 * How many times the campaign is predicted to read its source table (issue 41, ADR 0055), as preparation estimated
 * it: the factor, the page visits it sums and the table's pages, and why. Three numbers and one bounded text; built
 * by {@code CampaignStatusProjector.sourceReads}.
 */
@JsonPropertyOrder({"factor", "pagesVisited", "tablePages", "basis"})
public class SourceReadStatus {
    @JsonPropertyDescription("Predicted source page visits over the table's pages: about 1 when each chunk reads its"
            + " own pages, about the chunk count when each reads most of the table (absent: not estimated).")
    private Double factor;
    @JsonPropertyDescription("Source page visits predicted for all chunks together.")
    private Long pagesVisited;
    @JsonPropertyDescription("The source table's pages when the campaign was prepared.")
    private Long tablePages;
    @JsonPropertyDescription("Why: how the chunk column lies in the heap and the scan the server picks for a chunk; or"
            + " why there is no estimate.")
    private String basis;

    public Double getFactor() {
        return factor;
    }

    public void setFactor(Double factor) {
        this.factor = factor;
    }

    public Long getPagesVisited() {
        return pagesVisited;
    }

    public void setPagesVisited(Long pagesVisited) {
        this.pagesVisited = pagesVisited;
    }

    public Long getTablePages() {
        return tablePages;
    }

    public void setTablePages(Long tablePages) {
        this.tablePages = tablePages;
    }

    public String getBasis() {
        return basis;
    }

    public void setBasis(String basis) {
        this.basis = basis;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SourceReadStatus s && Objects.equals(factor, s.factor)
                && Objects.equals(pagesVisited, s.pagesVisited) && Objects.equals(tablePages, s.tablePages)
                && Objects.equals(basis, s.basis);
    }

    @Override
    public int hashCode() {
        return Objects.hash(factor, pagesVisited, tablePages, basis);
    }
}
