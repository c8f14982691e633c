package io.dpone.backfill.cli.kubectl;

import io.dpone.backfill.cli.OutputFormat;
import io.dpone.backfill.cli.plan.PlanReport;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code kubectl backfill plan -f campaign.yaml}: the same validation and plan as {@code backfill plan}, with
 * kubectl's {@code -f}. Touches neither the cluster nor a database.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Validate a BackfillCampaign manifest and print its chunk plan, run key and artifact names. Touches nothing.")
public final class ManifestPlanCommand implements Callable<Integer> {
    @Option(names = {"-f", "--filename"}, required = true, paramLabel = "FILE", description = "The campaign manifest you would kubectl apply.")
    Path file;

    @Option(names = {"-o", "--format"}, defaultValue = "text", description = "text (one summary line) or json.")
    OutputFormat format;

    @Option(names = "--chunks", description = "Include every chunk's range and source predicate (JSON only).")
    boolean chunks;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        CampaignBlueprint blueprint = CampaignBlueprint.of(CampaignReader.read(file));
        spec.commandLine().getOut().println(format == OutputFormat.json ? PlanReport.json(blueprint, chunks) : PlanReport.text(blueprint));
        spec.commandLine().getOut().flush();
        return 0;
    }
}
