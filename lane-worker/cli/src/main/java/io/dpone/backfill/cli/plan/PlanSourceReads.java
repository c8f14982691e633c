package io.dpone.backfill.cli.plan;

import io.dpone.backfill.connect.CampaignConnections;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.source.SourceReadCost;
import io.dpone.backfill.source.SourceAdapter;
import io.dpone.backfill.wiring.Connectors;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * The source reads {@code plan} predicts for a campaign (issue 41, ADR 0055) when it can reach the source: its Secret
 * in a {@code --secrets} file, or {@code BACKFILL_SOURCE_*} in the environment. Otherwise plan stays offline and says
 * what the estimate needs; an unreachable source is said, never a failure of plan.
 */
final class PlanSourceReads {
    private PlanSourceReads() {
    }

    static SourceReadCost of(CampaignBlueprint blueprint, List<Path> secretFiles, Map<String, String> env)
            throws IOException {
        BackfillCampaignSpec spec = blueprint.definition().spec();
        SourceAdapter adapter = Connectors.source(spec.getSource().getType());
        ConnectionSettings settings;
        try {
            settings = CampaignConnections.resolve(CampaignConnections.SOURCE,
                    spec.getSource().getConnectionSecretRef().getName(), secretFiles, env, adapter.endpoint());
        } catch (IllegalArgumentException e) {
            return SourceReadCost.unknown("needs the source (plan touched no database): pass --secrets FILE holding"
                    + " the Secret '" + spec.getSource().getConnectionSecretRef().getName() + "', or set"
                    + " BACKFILL_SOURCE_JDBC_URL");
        }
        try (Connection source = settings.open("backfill-plan")) {
            return adapter.catalog(source).readCost(spec.getSource().getSchema(), spec.getSource().getTable(),
                    blueprint.plan());
        } catch (SQLException e) {
            return SourceReadCost.unknown("the source could not be reached: " + e.getMessage());
        }
    }
}
