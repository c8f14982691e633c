package io.dpone.backfill.cli.bench;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.plan.CampaignBlueprint;

/** Runs one reconciliation pass the way `backfill reconcile` does; returns the CLI's exit code. */
@FunctionalInterface
public interface PassRunner {
    int reconcile(CampaignBlueprint blueprint, ConnectionSettings source, ConnectionSettings target) throws Exception;
}
