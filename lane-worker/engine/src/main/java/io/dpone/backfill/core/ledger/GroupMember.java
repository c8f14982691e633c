package io.dpone.backfill.core.ledger;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.naming.ArtifactNames;

/**
 * One campaign of a publication group as the ledger records it (issue 27): written when the campaign opens, and
 * {@link Readiness} added when it has validated and may swap (approved and inside its window when it has to be).
 * {@code phase} is the campaign's current phase.
 */
public record GroupMember(String group, String runKey, String termsDigest, String schema, String liveTable,
                          CampaignPhase phase, Readiness readiness) {

    /** What the group's swap needs of a validated member: its tables, rows, baseline and shadow fingerprint. */
    public record Readiness(String shadowTable, String backupTable, long rows, String liveBaseline,
                            String publishedFingerprint) {
    }

    /** Validated, marked ready and still waiting to swap: a member that blocked since is no longer ready. */
    public boolean ready() {
        return readiness != null && phase == CampaignPhase.Publishing;
    }

    /** The member's shadow and backup names; only for a ready member. */
    public ArtifactNames names() {
        if (readiness == null) {
            throw new IllegalStateException("group member " + liveTable + " has not validated: it has no shadow to swap yet");
        }
        return new ArtifactNames(schema, readiness.shadowTable(), readiness.backupTable());
    }
}
