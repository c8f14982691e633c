package io.dpone.backfill.core.campaign;

import java.util.Objects;

/** Publication evidence, shaped like the reference design's result JSON. */
public class PublicationStatus {
    private String mode;
    private String phase;
    private String validation;
    private String shadowTable;
    private String backupTable;
    private Long expectedRows;
    private Long actualRows;
    private Long duplicateKeys;
    private Long nullKeys;
    private String receiptId;
    private Boolean backupRetained;
    private Long uncoveredSourceRows;
    private String coverage;
    private String contentCheck;
    private String approval;
    private String approvedBy;
    private String approvedAt;
    private Boolean contentMatches;
    private String group;
    private String groupStanding;

    public String getMode() {
        return mode;
    }

    public void setMode(String mode) {
        this.mode = mode;
    }

    public String getPhase() {
        return phase;
    }

    public void setPhase(String phase) {
        this.phase = phase;
    }

    public String getValidation() {
        return validation;
    }

    public void setValidation(String validation) {
        this.validation = validation;
    }

    public String getShadowTable() {
        return shadowTable;
    }

    public void setShadowTable(String shadowTable) {
        this.shadowTable = shadowTable;
    }

    public String getBackupTable() {
        return backupTable;
    }

    public void setBackupTable(String backupTable) {
        this.backupTable = backupTable;
    }

    public Long getExpectedRows() {
        return expectedRows;
    }

    public void setExpectedRows(Long expectedRows) {
        this.expectedRows = expectedRows;
    }

    public Long getActualRows() {
        return actualRows;
    }

    public void setActualRows(Long actualRows) {
        this.actualRows = actualRows;
    }

    public Long getDuplicateKeys() {
        return duplicateKeys;
    }

    public void setDuplicateKeys(Long duplicateKeys) {
        this.duplicateKeys = duplicateKeys;
    }

    public Long getNullKeys() {
        return nullKeys;
    }

    public void setNullKeys(Long nullKeys) {
        this.nullKeys = nullKeys;
    }

    public String getReceiptId() {
        return receiptId;
    }

    public void setReceiptId(String receiptId) {
        this.receiptId = receiptId;
    }

    public Boolean getBackupRetained() {
        return backupRetained;
    }

    public void setBackupRetained(Boolean backupRetained) {
        this.backupRetained = backupRetained;
    }

    /** Source rows no chunk covers (NULL chunk key); null when not counted, {@link #getCoverage()} says why. */
    public Long getUncoveredSourceRows() {
        return uncoveredSourceRows;
    }

    public void setUncoveredSourceRows(Long uncoveredSourceRows) {
        this.uncoveredSourceRows = uncoveredSourceRows;
    }

    public String getCoverage() {
        return coverage;
    }

    public void setCoverage(String coverage) {
        this.coverage = coverage;
    }

    /**
     * The read-back gate before the swap (ADR 0036): {@code content} (stored rows compared with what the lanes sent)
     * or {@code counts} (turned off, or not possible: the phase detail says why); null before validation.
     */
    public String getContentCheck() {
        return contentCheck;
    }

    public void setContentCheck(String contentCheck) {
        this.contentCheck = contentCheck;
    }

    /** {@code manual} when a person approves the swap (issue 28); absent when it is automatic. */
    public String getApproval() {
        return approval;
    }

    public void setApproval(String approval) {
        this.approval = approval;
    }

    /** Who approved the swap, as the approval recorded it; absent until approved. */
    public String getApprovedBy() {
        return approvedBy;
    }

    public void setApprovedBy(String approvedBy) {
        this.approvedBy = approvedBy;
    }

    /** When, ISO-8601 UTC. */
    public String getApprovedAt() {
        return approvedAt;
    }

    public void setApprovedAt(String approvedAt) {
        this.approvedAt = approvedAt;
    }

    /** With {@code content}: whether the stored rows matched what was sent. */
    public Boolean getContentMatches() {
        return contentMatches;
    }

    public void setContentMatches(Boolean contentMatches) {
        this.contentMatches = contentMatches;
    }

    /** The publication group it swaps with (issue 27); absent for a campaign of its own. */
    public String getGroup() {
        return group;
    }

    public void setGroup(String group) {
        this.group = group;
    }

    /** How many members are ready and which hold the group, or that it published; absent without a group. */
    public String getGroupStanding() {
        return groupStanding;
    }

    public void setGroupStanding(String groupStanding) {
        this.groupStanding = groupStanding;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PublicationStatus p && Objects.equals(mode, p.mode) && Objects.equals(phase, p.phase)
                && Objects.equals(validation, p.validation) && Objects.equals(shadowTable, p.shadowTable)
                && Objects.equals(backupTable, p.backupTable) && Objects.equals(expectedRows, p.expectedRows)
                && Objects.equals(actualRows, p.actualRows) && Objects.equals(duplicateKeys, p.duplicateKeys)
                && Objects.equals(nullKeys, p.nullKeys) && Objects.equals(receiptId, p.receiptId)
                && Objects.equals(backupRetained, p.backupRetained)
                && Objects.equals(uncoveredSourceRows, p.uncoveredSourceRows) && Objects.equals(coverage, p.coverage)
                && Objects.equals(contentCheck, p.contentCheck) && Objects.equals(contentMatches, p.contentMatches)
                && Objects.equals(approval, p.approval) && Objects.equals(approvedBy, p.approvedBy)
                && Objects.equals(approvedAt, p.approvedAt) && Objects.equals(group, p.group)
                && Objects.equals(groupStanding, p.groupStanding);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, phase, validation, shadowTable, backupTable, expectedRows, actualRows, duplicateKeys,
                nullKeys, receiptId, backupRetained, uncoveredSourceRows, coverage, contentCheck, contentMatches,
                approval, approvedBy, approvedAt, group, groupStanding);
    }
}
