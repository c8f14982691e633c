package io.dpone.backfill.core.campaign;

import java.util.Objects;

/** The PostgreSQL XMin anchor and the handoff receipt that lets incremental sync start. */
public class HandoffStatus {
    private String anchorXmin;
    private String receiptId;
    private String committedAt;
    /** The reconciliation pass whose anchor the receipt carries (ADR 0057); absent: the load's own anchor. */
    private Integer fromPass;

    public Integer getFromPass() {
        return fromPass;
    }

    public void setFromPass(Integer fromPass) {
        this.fromPass = fromPass;
    }

    public String getAnchorXmin() {
        return anchorXmin;
    }

    public void setAnchorXmin(String anchorXmin) {
        this.anchorXmin = anchorXmin;
    }

    public String getReceiptId() {
        return receiptId;
    }

    public void setReceiptId(String receiptId) {
        this.receiptId = receiptId;
    }

    public String getCommittedAt() {
        return committedAt;
    }

    public void setCommittedAt(String committedAt) {
        this.committedAt = committedAt;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HandoffStatus h && Objects.equals(anchorXmin, h.anchorXmin)
                && Objects.equals(receiptId, h.receiptId) && Objects.equals(committedAt, h.committedAt)
                && Objects.equals(fromPass, h.fromPass);
    }

    @Override
    public int hashCode() {
        return Objects.hash(anchorXmin, receiptId, committedAt, fromPass);
    }
}
