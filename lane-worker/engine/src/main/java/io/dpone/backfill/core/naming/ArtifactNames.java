package io.dpone.backfill.core.naming;

import io.dpone.backfill.core.campaign.IdentifierLimit;
import io.dpone.backfill.core.campaign.ArtifactScope;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.digest.Sha256;

/**
 * Shadow and backup table names, derived from the live target (and, with {@code artifactScope: campaign}, a
 * bounded digest of {@code backfillId}). They live in the target's schema. A name that would pass the engine's
 * limit is shortened deterministically and made unique again with a digest of the full table name, so a valid
 * live name always yields valid artifact names.
 */
public record ArtifactNames(String schema, String shadowTable, String backupTable) {
    static final int DIGEST_CHARS = 8;

    public static ArtifactNames derive(BackfillCampaignSpec normalised) {
        String table = normalised.getTarget().getTable();
        IdentifierLimit limit = normalised.getTarget().getType().identifierLimit();
        String scope = normalised.getPublication().getArtifactScope() == ArtifactScope.CAMPAIGN
                ? "__bf_" + Sha256.hex(normalised.getBackfillId()).substring(0, DIGEST_CHARS)
                : "__bf";
        return new ArtifactNames(normalised.getTarget().getSchema(),
                fit(table, scope + "_shadow", limit), fit(table, scope + "_backup", limit));
    }

    static String fit(String table, String suffix, IdentifierLimit limit) {
        String whole = table + suffix;
        if (limit.fits(whole)) {
            return whole;
        }
        String tail = "_" + Sha256.hex(table).substring(0, DIGEST_CHARS) + suffix;
        // Cut on code point boundaries so a multi-byte character is never split.
        StringBuilder prefix = new StringBuilder();
        for (int i = 0; i < table.length(); ) {
            int cp = table.codePointAt(i);
            String candidate = prefix.toString() + new String(Character.toChars(cp)) + tail;
            if (!limit.fits(candidate)) {
                break;
            }
            prefix.appendCodePoint(cp);
            i += Character.charCount(cp);
        }
        return prefix + tail;
    }
}
