package io.dpone.backfill.cli.bench;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.plan.CampaignBlueprint;

/** Runs a campaign to its handoff the way `backfill run` does, lanes as processes; returns the CLI's exit code. */
@FunctionalInterface
public interface CampaignRunner {
    int run(CampaignBlueprint blueprint, ConnectionSettings source, ConnectionSettings target) throws Exception;
}
