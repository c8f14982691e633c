package io.dpone.backfill.cli.plan;

import io.dpone.backfill.cli.CampaignOptions;
import io.dpone.backfill.cli.OutputFormat;
import io.dpone.backfill.cli.PrettyJson;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.doctor.DoctorReport;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.Severity;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.targets.TargetAdapter;
import io.dpone.backfill.wiring.Connectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code backfill doctor}: pre-flight checks that create nothing; every finding has a severity and an action. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check a campaign before running it, creating nothing.",
                "Checks connectivity and privileges, the source key and chunk column, the target's shape, objects a swap"
                        + " would orphan or redirect, and foreign shadows.",
                "Exit 0: no errors; 6: errors found (the same code `run` gives when pre-flight refuses)."})
public final class DoctorCommand implements Callable<Integer> {

    @Mixin
    CampaignOptions campaign;

    @Option(names = "--format", defaultValue = "text", description = "text or json.")
    OutputFormat format;

    @Override
    public Integer call() throws Exception {
        CampaignBlueprint blueprint = campaign.blueprint();
        BackfillCampaignSpec spec = blueprint.definition().spec();
        TargetAdapter adapter = Connectors.target(spec.getTarget().getType());
        DoctorReport report;
        List<Finding> unresolved = new java.util.ArrayList<>();
        ConnectionSettings sourceSettings = settings("source", () -> campaign.source(spec), unresolved);
        ConnectionSettings targetSettings = settings("target", () -> campaign.target(spec), unresolved);
        if (!unresolved.isEmpty()) {
            // A finding like any other (exit 6, as the help says), not a crash before the report (issue 40).
            report = new DoctorReport(unresolved);
        } else {
            try (Connection source = connect(sourceSettings, "source"); Connection target = connect(targetSettings, "target")) {
                report = adapter.doctor().check(spec, blueprint.artifacts(), new SourceTable(Connectors.source(
                        spec.getSource().getType()), source, spec.getSource().getSchema(), spec.getSource().getTable()),
                        target, blueprint.identity().runKey());
            } catch (UnreachableException e) {
                report = new DoctorReport(List.of(Finding.error(e.role + ".connect", e.getMessage(),
                        "check the " + e.role + " Secret's jdbcUrl, user and password, and that the database accepts connections from here")));
            }
        }
        if (format == OutputFormat.json) {
            System.out.println(PrettyJson.write(report));
        } else {
            for (Finding f : report.findings()) {
                System.out.println(PreflightReport.line(f));
            }
            System.out.printf("doctor: %d error(s), %d warning(s)%n", report.withSeverity(Severity.ERROR).size(),
                    report.withSeverity(Severity.WARNING).size());
        }
        return report.hasErrors() ? ExitCodes.PREFLIGHT_ERRORS : ExitCodes.OK;
    }

    private interface Resolution {
        ConnectionSettings resolve() throws java.io.IOException;
    }

    /** The role's connection settings, or null with an ERROR naming the Secret and the Secrets the files hold. */
    private ConnectionSettings settings(String role, Resolution resolution, List<Finding> unresolved) throws java.io.IOException {
        try {
            return resolution.resolve();
        } catch (IllegalArgumentException e) {
            java.util.Set<String> found = campaign.secretFiles().isEmpty() ? java.util.Set.of()
                    : new java.util.TreeSet<>(io.dpone.backfill.connect.SecretManifests.read(campaign.secretFiles()).keySet());
            unresolved.add(Finding.error(role + ".secret.unresolved", e.getMessage(), campaign.secretFiles().isEmpty()
                    ? "pass --secrets FILE holding the Secret the campaign names"
                    : "the files hold the Secrets " + found + ": name one of them in the campaign, or add the one it names"));
            return null;
        }
    }

    private static Connection connect(ConnectionSettings settings, String role) throws UnreachableException {
        try {
            return settings.open("backfill-doctor-" + role);
        } catch (SQLException e) {
            throw new UnreachableException(role, e.getMessage());
        }
    }

    private static final class UnreachableException extends Exception {
        final String role;

        UnreachableException(String role, String message) {
            super(message);
            this.role = role;
        }
    }
}
