package io.dpone.backfill.cli.run;

import io.dpone.backfill.cli.CampaignOptions;
import io.dpone.backfill.cli.OutputFormat;
import io.dpone.backfill.cli.PrettyJson;
import io.dpone.backfill.cli.status.ReconcileReport;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.reconcile.KeyDecision;
import io.dpone.backfill.core.reconcile.QueuedKey;
import io.dpone.backfill.core.reconcile.ReconcileLedger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code backfill reconcile}: one reconciliation pass after the handoff (issue 38, ADR 0054). */
@Command(name = "reconcile", mixinStandardHelpOptions = true,
        description = {"Bring the published table to the source as it is now, after the handoff: rows written in the source"
                + " since the last anchor are written by key, rows it deleted are deleted, one range at a time, each range"
                + " in one transaction with its receipt. The incremental sync anchor moves to this pass's.",
                "A row someone else wrote into the published table after publication is never overwritten or deleted: its key"
                        + " is queued for a decision (--accept writes the source's version, --keep keeps the target's).",
                "An interrupted pass is finished by running reconcile again (reconciled ranges are not read again).",
                "Exit 0: caught up (the pass finished, no key waits); 7: keys wait in the queue; 1: the campaign cannot be"
                        + " reconciled (not handed off, rolled back); 2: a bad option or key; 5: another driver holds the campaign."})
public final class ReconcileCommand implements Callable<Integer> {
    @Mixin
    CampaignOptions campaign;

    @Mixin
    DriverWaitOption driverWait;

    @Spec
    CommandSpec spec;

    @Option(names = "--accept", paramLabel = "KEY", description = "A queued key (as status lists it, e.g. (42)) whose source"
            + " version this pass writes. Repeatable.")
    List<String> accept = new ArrayList<>();

    @Option(names = "--accept-all", description = "Every queued key that waits for a decision: this pass writes the source's version.")
    boolean acceptAll;

    @Option(names = "--keep", paramLabel = "KEY", description = "A queued key whose target version stays; passes leave it alone."
            + " Repeatable.")
    List<String> keep = new ArrayList<>();

    @Option(names = "--format", defaultValue = "text", description = "text or json: the receiving report.")
    OutputFormat format;

    @Override
    public Integer call() throws Exception {
        if (acceptAll && !accept.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--accept-all: already every queued key; leave out --accept");
        }
        CampaignBlueprint blueprint = campaign.blueprint();
        BackfillCampaignSpec campaignSpec = blueprint.definition().spec();
        String runKey = blueprint.identity().runKey();
        ReconcileRun.Outcome outcome = ReconcileRun.execute(blueprint, campaign.source(campaignSpec), campaign.target(campaignSpec),
                driverWait.bound(), new ReconcileRun.Decisions() {
                    @Override
                    public void check(ReconcileLedger passes) {
                        if (!accept.isEmpty() || !keep.isEmpty()) {
                            // The whole queue is read only to check the keys named, before any is decided.
                            Set<String> waiting = passes.queue(runKey, Integer.MAX_VALUE).stream().filter(q -> q.decision() == null)
                                    .map(QueuedKey::key).collect(Collectors.toCollection(TreeSet::new));
                            refuseUnknown("--accept", accept, waiting);
                            refuseUnknown("--keep", keep, waiting);
                        }
                    }

                    @Override
                    public void decide(ReconcileLedger passes) {
                        ReconcileCommand.this.decide(passes, runKey);
                    }
                }, line -> System.err.println("backfill: " + line));
        ReconcileReport report = outcome.report();
        if (report != null) {
            if (format == OutputFormat.json) {
                System.out.println(PrettyJson.write(report.json()));
            } else {
                report.textLines().forEach(System.out::println);
                System.out.println("next: " + report.nextAction());
            }
        }
        return outcome.exitCode();
    }

    /** Before anything is decided or read: every key named must wait in the queue, else the option is named. */
    private void refuseUnknown(String option, List<String> keys, Set<String> waiting) {
        List<String> unknown = keys.stream().filter(k -> !waiting.contains(k)).toList();
        if (!unknown.isEmpty()) {
            throw new ParameterException(spec.commandLine(), option + ": " + unknown + " " + (unknown.size() == 1 ? "is" : "are")
                    + " not waiting in the reconciliation queue" + (waiting.isEmpty() ? " (it is empty)"
                    : "; waiting: " + waiting.stream().limit(10).toList() + (waiting.size() > 10 ? " ..." : "")));
        }
    }

    private void decide(ReconcileLedger passes, String runKey) {
        if (acceptAll) {
            System.err.println("backfill: reconcile: accepted " + passes.decide(runKey, List.of(), KeyDecision.ACCEPT) + " queued key(s)");
        } else if (!accept.isEmpty()) {
            passes.decide(runKey, accept, KeyDecision.ACCEPT);
        }
        if (!keep.isEmpty()) {
            passes.decide(runKey, keep, KeyDecision.KEEP);
        }
    }
}
