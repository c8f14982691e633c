package io.dpone.backfill.cli.plan;

import io.dpone.backfill.cli.OutputFormat;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.source.SourceReadCost;
import io.dpone.backfill.lane.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code backfill plan campaign.yaml}: validates a campaign and shows its immutable plan, with no I/O; with the
 * source's connection settings, also how many times its chunks will read the source table (issue 41).
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = {"Validate a campaign file and print its chunk plan, run key and artifact names.",
                "Touches no database, unless the source's connection settings are given (--secrets, or"
                        + " BACKFILL_SOURCE_JDBC_URL): then it also reads the source's statistics and plans (EXPLAIN,"
                        + " nothing executed) to predict how many times the chunks read the source table."})
public final class PlanCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "CAMPAIGN", description = "Campaign YAML (the same document you would kubectl apply).")
    Path campaignFile;

    @Option(names = "--format", defaultValue = "text", description = "text (one summary line) or json (bounded document).")
    OutputFormat format;

    @Option(names = "--chunks", description = "Include every chunk's range and source predicate (JSON only).")
    boolean chunks;

    @Option(names = "--secrets", paramLabel = "FILE",
            description = "Kubernetes Secret manifest(s) holding the source's connection settings (repeatable), to predict"
                    + " the source reads. Without it: BACKFILL_SOURCE_JDBC_URL/_USER/_PASSWORD from the environment,"
                    + " else no database is touched.")
    List<Path> secretFiles = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        CampaignBlueprint blueprint = CampaignBlueprint.of(CampaignReader.read(campaignFile));
        SourceReadCost reads = PlanSourceReads.of(blueprint, secretFiles, System.getenv());
        if (format == OutputFormat.json) {
            System.out.println(PlanReport.json(blueprint, chunks, reads));
        } else {
            System.out.println(PlanReport.text(blueprint, reads));
        }
        return ExitCodes.OK;
    }
}
