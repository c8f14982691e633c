package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Objects;

/** How the loaded rows become visible in the live target. */
public class PublicationSpec {
    @JsonPropertyDescription("direct (default) or shadow_swap.")
    private PublicationMode mode;
    @JsonPropertyDescription("Keep the old live table as a backup after the swap (default true; deletion is not automatic).")
    private Boolean retainBackup;
    @JsonPropertyDescription("stable (default) or campaign: shadow/backup names carry a digest of backfillId.")
    private ArtifactScope artifactScope;
    @JsonPropertyDescription("content (default) or counts: before the swap, compare the content the target stored in"
            + " the shadow with what the lanes sent (content), or check counts and keys only (counts).")
    private PublicationVerify verify;
    @JsonPropertyDescription("shadow_swap only: the swap (and the handoff after it) waits for this daily window;"
            + " validation finishes as soon as it can.")
    private PublicationWindowSpec window;
    @JsonPropertyDescription("automatic (default) or manual: shadow_swap only; with manual a validated campaign waits"
            + " in Publishing until a person approves the swap (backfill publish, kubectl backfill publish, or the"
            + " backfill.dpone.io/approve annotation); the receipt records who and when.")
    private ApprovalMode approval;
    @JsonPropertyDescription("shadow_swap only: campaigns naming the same group publish in one transaction once all of"
            + " them have validated, and roll back together (issue 27).")
    private PublicationGroupSpec group;

    public PublicationMode getMode() {
        return mode;
    }

    public void setMode(PublicationMode mode) {
        this.mode = mode;
    }

    public Boolean getRetainBackup() {
        return retainBackup;
    }

    public void setRetainBackup(Boolean retainBackup) {
        this.retainBackup = retainBackup;
    }

    public ArtifactScope getArtifactScope() {
        return artifactScope;
    }

    public void setArtifactScope(ArtifactScope artifactScope) {
        this.artifactScope = artifactScope;
    }

    public PublicationVerify getVerify() {
        return verify;
    }

    public void setVerify(PublicationVerify verify) {
        this.verify = verify;
    }

    public ApprovalMode getApproval() {
        return approval;
    }

    public void setApproval(ApprovalMode approval) {
        this.approval = approval;
    }

    /** The approval in force: absent means automatic (the normalised spec leaves it absent, see {@link SpecDefaults}). */
    public ApprovalMode approvalMode() {
        return approval == null ? ApprovalMode.AUTOMATIC : approval;
    }

    public PublicationGroupSpec getGroup() {
        return group;
    }

    public void setGroup(PublicationGroupSpec group) {
        this.group = group;
    }

    public PublicationWindowSpec getWindow() {
        return window;
    }

    public void setWindow(PublicationWindowSpec window) {
        this.window = window;
    }

    /** The check in force: absent means content (the normalised spec leaves it absent, see {@link SpecDefaults}). */
    public PublicationVerify verification() {
        return verify == null ? PublicationVerify.CONTENT : verify;
    }

    PublicationSpec copy() {
        PublicationSpec c = new PublicationSpec();
        c.mode = mode;
        c.retainBackup = retainBackup;
        c.artifactScope = artifactScope;
        c.verify = verify;
        c.window = window == null ? null : window.copy();
        c.approval = approval;
        c.group = group == null ? null : group.copy();
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PublicationSpec p && mode == p.mode && Objects.equals(retainBackup, p.retainBackup)
                && artifactScope == p.artifactScope && verify == p.verify && Objects.equals(window, p.window) && approval == p.approval
                && Objects.equals(group, p.group);
    }

    @Override
    public int hashCode() {
        return Objects.hash(mode, retainBackup, artifactScope, verify, window, approval, group);
    }
}
