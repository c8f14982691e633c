package io.dpone.backfill.cli.plan;

import io.dpone.backfill.cli.OutputFormat;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.lane.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code backfill plan campaign.yaml}: validates a campaign and shows its immutable plan, with no I/O. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Validate a campaign file and print its chunk plan, run key and artifact names. Touches no database.")
public final class PlanCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "CAMPAIGN", description = "Campaign YAML (the same document you would kubectl apply).")
    Path campaignFile;

    @Option(names = "--format", defaultValue = "text", description = "text (one summary line) or json (bounded document).")
    OutputFormat format;

    @Option(names = "--chunks", description = "Include every chunk's range and source predicate (JSON only).")
    boolean chunks;

    @Override
    public Integer call() {
        CampaignBlueprint blueprint = CampaignBlueprint.of(CampaignReader.read(campaignFile));
        if (format == OutputFormat.json) {
            System.out.println(PlanReport.json(blueprint, chunks));
        } else {
            System.out.println(PlanReport.text(blueprint));
        }
        return ExitCodes.OK;
    }
}
