package io.dpone.backfill.cli.kubectl;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.cli.run.ThrottleCommand;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code kubectl backfill throttle NAME}: sets {@code spec.throttle} of a campaign (issue 28), the one spec part
 * besides {@code suspend} and {@code lane} that may change once it is planned. The operator records the new ceiling
 * in the ledger at its next pass; the lanes follow within a second of that.
 */
@Command(name = "throttle", mixinStandardHelpOptions = true,
        description = "Set spec.throttle: the rate ceiling the campaign's lanes share, and how many lanes load. Options"
                + " not given keep their value; --off removes the ceiling. A no-op when the campaign already carries it.")
public final class ThrottleRequestCommand extends CampaignActionCommand {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--rows-per-second", paramLabel = "N", description = "Rows a second the lanes read together at most.")
    Long rowsPerSecond;

    @Option(names = "--bytes-per-second", paramLabel = "N", description = "Row bytes a second the lanes read together at most.")
    Long bytesPerSecond;

    @Option(names = "--off", description = "No ceiling (removes spec.throttle.rowsPerSecond and bytesPerSecond).")
    boolean off;

    @Option(names = "--lanes", paramLabel = "N", description = "Lanes that load now (spec.throttle.lanes), 1 to parallelWorkers.")
    Integer lanes;

    @Override
    public Integer call() {
        // Refused before the cluster is asked anything.
        Optional<String> problem = ThrottleCommand.problem(rowsPerSecond, bytesPerSecond, off, lanes);
        if (problem.isPresent()) {
            spec.commandLine().getErr().println("kubectl-backfill: " + problem.get());
            spec.commandLine().getErr().flush();
            return 2;
        }
        return super.call();
    }

    @Override
    String patch(GenericKubernetesResource campaign) {
        Object current = specValue(campaign, "throttle");
        Map<?, ?> throttle = current instanceof Map<?, ?> m ? m : Map.of();
        ObjectNode patch = JSON.createObjectNode();
        ObjectNode spec = patch.putObject("spec");
        if (off) {
            if (throttle.get("rowsPerSecond") == null && throttle.get("bytesPerSecond") == null) {
                return null;
            }
            // A merge patch's null removes the field: the ceiling goes, the lanes, guard and windows stay.
            spec.putObject("throttle").putNull("rowsPerSecond").putNull("bytesPerSecond");
            return patch.toString();
        }
        boolean same = (rowsPerSecond == null || sameNumber(throttle.get("rowsPerSecond"), rowsPerSecond))
                && (bytesPerSecond == null || sameNumber(throttle.get("bytesPerSecond"), bytesPerSecond))
                && (lanes == null || sameNumber(throttle.get("lanes"), lanes));
        if (same) {
            return null;
        }
        ObjectNode t = spec.putObject("throttle");
        if (rowsPerSecond != null) {
            t.put("rowsPerSecond", rowsPerSecond);
        }
        if (bytesPerSecond != null) {
            t.put("bytesPerSecond", bytesPerSecond);
        }
        if (lanes != null) {
            t.put("lanes", lanes);
        }
        return patch.toString();
    }

    private static boolean sameNumber(Object value, long wanted) {
        return value instanceof Number n && n.longValue() == wanted;
    }

    @Override
    String outcome(boolean changed) {
        String what = off ? "no ceiling" : describe();
        return (changed ? "throttle set: " : "throttle already set: ") + what + " (spec.throttle); the operator records it"
                + " at its next pass and the lanes follow within a second. Under GitOps, set spec.throttle in Git too,"
                + " or the next sync reverts it.";
    }

    private String describe() {
        return Objects.toString(rowsPerSecond == null ? null : rowsPerSecond + " rows/s", "")
                + (rowsPerSecond != null && bytesPerSecond != null ? ", " : "")
                + (bytesPerSecond == null ? "" : bytesPerSecond + " bytes/s")
                + (lanes == null ? "" : (rowsPerSecond != null || bytesPerSecond != null ? ", " : "") + lanes + " lanes");
    }
}
