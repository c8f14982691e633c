package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.CampaignOptions;
import io.dpone.backfill.cli.OutputFormat;
import io.dpone.backfill.cli.local.LaneLogDirectory;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.wiring.Connectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code backfill run}: the whole campaign locally, lanes as child processes. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run a campaign to its XMin handoff without Kubernetes: lanes run as local child processes.",
                "Exit codes: 0 handed off, 2 invalid campaign, 3 blocked, 4 recoverable (see `status`, then `resume`),"
                        + " 5 another driver's live session holds the campaign (after --wait-for-driver), 6 refused by"
                        + " pre-flight (nothing created), 9 validated and waiting for the rest of its publication group"
                        + " (run the other members' files, then this one again), 1 other failure.",
                "stdout holds only the report (--format): the evidence JSON by default, so `| jq .` reads it; progress"
                        + " and notices go to stderr.",
                "A driver that died (its database session is gone) is taken over at once."})
public class RunCommand implements Callable<Integer> {
    @Mixin
    CampaignOptions campaign;

    @Mixin
    DriverWaitOption driverWait;

    @Option(names = LaneLogDirectory.OPTION, paramLabel = "DIR", description = {"Where lane logs go: a directory of yours that"
            + " no one else can write, created (mode 0700) if missing.", "Default: a new private <tmp>/backfill-<runKey>-<random>."})
    Path logDir;

    @Spec
    CommandSpec spec;

    @Option(names = "--format", defaultValue = "json", description = {"json (default): the evidence document on stdout;"
            + " text: the final status line and what to do next."})
    OutputFormat format;

    @Option(names = "--skip-preflight", description = {"Experts only: start without the pre-flight checks that `doctor` runs.",
            "The evidence and the status then say that pre-flight was skipped."})
    boolean skipPreflight;

    boolean resume() {
        return false;
    }

    @Override
    public Integer call() throws Exception {
        CampaignBlueprint blueprint = campaign.blueprint();
        BackfillCampaignSpec campaignSpec = blueprint.definition().spec();
        Connectors.target(campaignSpec.getTarget().getType());
        LaneLogDirectory logs = null;
        if (logDir != null) {
            try {
                logs = LaneLogDirectory.chosen(logDir);
            } catch (IllegalArgumentException unsafe) {
                throw new ParameterException(spec.commandLine(), unsafe.getMessage());
            }
        }
        return DriverRun.execute(blueprint, campaign.source(campaignSpec), campaign.target(campaignSpec), logs, resume(),
                skipPreflight ? "--skip-preflight" : null, format, driverWait.bound());
    }
}
