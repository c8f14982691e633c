package io.dpone.backfill.cli;

import io.dpone.backfill.connect.CampaignConnections;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.wiring.Connectors;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The campaign file and where its connection settings come from; shared by every command that touches a database. */
public final class CampaignOptions {
    @Parameters(index = "0", paramLabel = "CAMPAIGN", description = "Campaign YAML (the same document you would kubectl apply).")
    Path campaignFile;

    @Option(names = "--secrets", paramLabel = "FILE",
            description = "Kubernetes Secret manifest(s) holding the connection settings the campaign names (repeatable). "
                    + "Without it: BACKFILL_SOURCE_JDBC_URL/_USER/_PASSWORD and BACKFILL_TARGET_... from the environment.")
    List<Path> secretFiles = new ArrayList<>();

    /** The Secret manifest files given with --secrets (empty: the environment is read). */
    public List<Path> secretFiles() {
        return List.copyOf(secretFiles);
    }

    public CampaignBlueprint blueprint() {
        return CampaignBlueprint.of(CampaignReader.read(campaignFile));
    }

    public ConnectionSettings source(BackfillCampaignSpec spec) throws IOException {
        return CampaignConnections.resolve(CampaignConnections.SOURCE, spec.getSource().getConnectionSecretRef().getName(),
                secretFiles, System.getenv(), Connectors.source(spec.getSource().getType()).endpoint());
    }

    public ConnectionSettings target(BackfillCampaignSpec spec) throws IOException {
        return CampaignConnections.resolve(CampaignConnections.TARGET, spec.getTarget().getConnectionSecretRef().getName(),
                secretFiles, System.getenv(), Connectors.target(spec.getTarget().getType()).endpoint());
    }
}
