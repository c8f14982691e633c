package io.dpone.backfill.core.validation;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.InnerMode;
import io.dpone.backfill.core.campaign.PublicationMode;
import io.dpone.backfill.core.campaign.RetryPolicy;
import io.dpone.backfill.core.campaign.SourceSpec;
import io.dpone.backfill.core.campaign.TargetSpec;

/**
 * Route and capability rules of the reference design, applied to the normalised spec: which combinations of
 * inner mode, publication and state this operator can run safely.
 */
final class RouteRules {
    private RouteRules() {
    }

    static void check(BackfillCampaignSpec s, Errors errors) {
        boolean shadow = s.getPublication().getMode() == PublicationMode.SHADOW_SWAP;
        if (s.getInnerMode() != InnerMode.INCREMENTAL_APPEND) {
            errors.add("spec.innerMode", shadow ? "shadow-swap-route" : "initial-load-only",
                    "must be incremental_append: " + s.getInnerMode().wireName()
                            + " belongs to incremental pipelines, which run outside this operator");
        }
        if (Boolean.TRUE.equals(s.getOnlyNewRows())) {
            errors.add("spec.onlyNewRows", shadow ? "shadow-swap-route" : "initial-load-only",
                    "must be false: an initial load copies every source row; skipping rows already in the target"
                            + " would probe the live table for every chunk");
        }
        if (!s.getState().getRequireDistributedLock()) {
            errors.add("spec.state.requireDistributedLock", shadow ? "shadow-swap-route" : "distributed-lock",
                    "must be true: the campaign lease in the ledger is what fences lanes and drivers");
        }
        if (!s.getPublication().getRetainBackup()) {
            errors.add("spec.publication.retainBackup", "backup-retention",
                    "must be true: automatic backup deletion is not part of this release; drop the backup explicitly after review");
        }
        if (s.getRetryPolicy() == RetryPolicy.NONE && s.getMaxChunkAttempts() != 1) {
            errors.add("spec.maxChunkAttempts", "retry-policy", "must be 1 (or left out) when retryPolicy is none");
        }
        if (s.getPublication().approvalMode() == io.dpone.backfill.core.campaign.ApprovalMode.MANUAL && !shadow) {
            errors.add("spec.publication.approval", "shadow-swap-route", "manual applies to shadow_swap only: a direct"
                    + " load writes into the live table chunk by chunk, there is no swap to approve");
        }
        if (s.getPublication().getWindow() != null && !shadow) {
            errors.add("spec.publication.window", "shadow-swap-route", "applies to shadow_swap only: a direct load"
                    + " writes into the live table chunk by chunk, there is no swap to schedule");
        }
        if (s.getPublication().getVerify() != null && !shadow) {
            errors.add("spec.publication.verify", "shadow-swap-route", "applies to shadow_swap only: it says what is"
                    + " read back from the shadow before the swap, and a direct load has neither (issue 40: a setting the"
                    + " route ignores is refused, not silently dropped)");
        }
        if (s.getPublication().getGroup() != null && !shadow) {
            errors.add("spec.publication.group", "shadow-swap-route", "applies to shadow_swap only: a direct load"
                    + " writes into the live table chunk by chunk, there is no swap to make together");
        }
        if (sameTable(s.getSource(), s.getTarget())) {
            errors.add("spec.target.table", "source-is-target",
                    "names the source table itself (same connection Secret, schema and table); a campaign cannot load a table into itself");
        }
    }

    private static boolean sameTable(SourceSpec source, TargetSpec target) {
        return target.getType().isSourceEngine()
                && source.getConnectionSecretRef().equals(target.getConnectionSecretRef())
                && source.getSchema().equals(target.getSchema())
                && source.getTable().equals(target.getTable());
    }
}
