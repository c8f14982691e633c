package io.dpone.backfill.cli.status;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.cli.CampaignOptions;
import io.dpone.backfill.cli.OutputFormat;
import io.dpone.backfill.cli.PrettyJson;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.ChunkState;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.verify.VerificationSummary;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.targets.TargetAdapter;
import io.dpone.backfill.wiring.Connectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code backfill status}: a read-only, bounded view of the ledger. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show a campaign's phase, counts, rows, rate, ETA, validation, receipts and the recommended action. Read-only.")
public final class StatusCommand implements Callable<Integer> {
    static final int MAX_FAILED_SHOWN = 10;

    @Mixin
    CampaignOptions campaign;

    @Option(names = "--format", defaultValue = "text", description = "text or json.")
    OutputFormat format;

    @Override
    public Integer call() throws Exception {
        CampaignBlueprint blueprint = campaign.blueprint();
        TargetAdapter adapter = Connectors.target(blueprint.definition().spec().getTarget().getType());
        ConnectionSettings target = campaign.target(blueprint.definition().spec());
        try (Connection state = target.open("backfill-status")) {
            LedgerStore ledger = adapter.ledger(state, blueprint.definition().spec().getState().getSchema());
            Optional<BackfillCampaignStatus> status = ledger.peek(blueprint.identity().runKey()).isPresent() ? StatusReader.read(blueprint, ledger) : Optional.empty();
            if (status.isEmpty()) {
                System.out.println(format == OutputFormat.json
                        ? "{\"phase\": \"NotStarted\", \"runKey\": \"" + blueprint.identity().runKey() + "\"}"
                        : "not started: run key " + blueprint.identity().runKey() + " is not in the ledger (next: backfill run)");
                return ExitCodes.OK;
            }
            if (format == OutputFormat.json) {
                ObjectNode root = PrettyJson.MAPPER.valueToTree(status.get());
                ArrayNode failed = root.putArray("failedChunks");
                failedChunks(ledger, blueprint.identity().runKey()).forEach(c -> failed.addObject()
                        .put("chunkId", c.chunkId()).put("attempts", c.attempts()).put("lastError", c.lastError()));
                verification(ledger, blueprint).ifPresent(v -> root.set("verification", v));
                reconciliation(adapter, state, blueprint, status.get()).ifPresent(r -> {
                    root.set("reconciliation", r.json());
                    // The handoff follows the last pass (issue 38): its anchor is where an incremental sync starts.
                    ((ObjectNode) root.path("handoff")).put("anchorXmin", r.syncAnchor());
                    root.put("recommendedAction", r.nextAction());
                });
                System.out.println(PrettyJson.write(root));
            } else {
                BackfillCampaignStatus s = status.get();
                System.out.println(ProgressDisplay.line(s) + "; validation " + s.getPublication().getValidation()
                        + (s.getPublication().getContentCheck() == null ? "" : "; content check "
                        + s.getPublication().getContentCheck() + (s.getPublication().getContentMatches() == null ? ""
                        : s.getPublication().getContentMatches() ? " (matches)" : " (differs)"))
                        + (s.getPublication().getApproval() == null ? "" : "; approval " + s.getPublication().getApproval()
                        + (s.getPublication().getApprovedBy() == null ? " (not yet approved)"
                        : " (approved by " + s.getPublication().getApprovedBy() + " at " + s.getPublication().getApprovedAt() + ")"))
                        + publicationText(s)
                        + (s.getPublication().getReceiptId() == null ? "" : "; publication receipt " + s.getPublication().getReceiptId())
                        + (s.getHandoff().getReceiptId() == null ? "" : "; handoff receipt " + s.getHandoff().getReceiptId()));
                if (s.getProgress() != null && s.getProgress().getEtaBasis() != null) {
                    System.out.println("ETA basis: " + s.getProgress().getEtaBasis());
                }
                if (s.getSourceReads() != null) {
                    System.out.println("source reads: " + (s.getSourceReads().getFactor() == null ? ""
                            : "about " + s.getSourceReads().getFactor() + "x the table's " + s.getSourceReads().getTablePages()
                            + " pages: ") + s.getSourceReads().getBasis());
                }
                if (s.getThrottle() != null) {
                    System.out.println("throttle: " + ThrottleText.of(s.getThrottle()));
                }
                verification(ledger, blueprint).ifPresent(v -> System.out.println("verification: " + line(v)));
                Optional<ReconcileReport> reconciled = reconciliation(adapter, state, blueprint, s);
                reconciled.ifPresent(r -> r.textLines().forEach(System.out::println));
                System.out.println("next: " + reconciled.map(ReconcileReport::nextAction).orElse(s.getRecommendedAction()));
            }
            return ExitCodes.OK;
        }
    }

    /** The last {@code backfill verify} result the ledger recorded (ADR 0018), when one ran. */
    public static Optional<ObjectNode> verification(LedgerStore ledger, CampaignBlueprint blueprint) {
        return ledger.verification(blueprint.identity().runKey()).map(VerificationSummary::parse);
    }

    /** One line: result, when, and the counts. */
    static String line(ObjectNode v) {
        return v.path("result").asText() + " at " + v.path("ran_at").asText() + " (" + v.path("chunks").asLong() + " chunks: "
                + v.path("equal").asLong() + " equal, " + v.path("differs").asLong() + " differ "
                + v.path("differing_chunks") + ", " + v.path("changed_since_anchor").asLong() + " changed since the anchor, "
                + v.path("no_digest").asLong() + " no digest recorded"
                + (v.has("table_totals") ? "; table totals " + v.path("table_totals").asText() : "") + ")";
    }

    /** Failed chunks with their errors, bounded; scanned in pages so a 16k-chunk ledger is never loaded at once. */
    static List<ChunkRecord> failedChunks(LedgerStore ledger, String runKey) {
        java.util.ArrayList<ChunkRecord> failed = new java.util.ArrayList<>();
        for (int offset = 0; failed.size() < MAX_FAILED_SHOWN; offset += 1000) {
            List<ChunkRecord> page = ledger.chunks(runKey, offset, 1000);
            page.stream().filter(c -> c.state() == ChunkState.FAILED).limit(MAX_FAILED_SHOWN - failed.size()).forEach(failed::add);
            if (page.size() < 1000) {
                break;
            }
        }
        return failed;
    }

    /** The group's standing (which a rollback rewrites), or the rollback of a campaign without a group. */
    static String publicationText(BackfillCampaignStatus s) {
        if (s.getPublication().getGroup() != null) {
            return "; " + s.getPublication().getGroupStanding();
        }
        return "rolled_back".equals(s.getPublication().getPhase()) ? "; publication rolled back" : "";
    }

    /**
     * The receiving report of reconciliation, once a pass ran after publication (issue 38): on a handed-off campaign,
     * or one whose spec's passes run before the handoff (Reconciling, ADR 0057); empty before.
     */
    static Optional<ReconcileReport> reconciliation(TargetAdapter adapter, Connection state, CampaignBlueprint blueprint,
                                                    BackfillCampaignStatus status) {
        boolean handedOff = status.getHandoff() != null && status.getHandoff().getReceiptId() != null;
        if (!handedOff && status.getPhase() != io.dpone.backfill.core.campaign.CampaignPhase.Reconciling) {
            return Optional.empty();
        }
        io.dpone.backfill.core.reconcile.ReconcileLedger passes;
        try {
            passes = adapter.reconcileLedger(state, blueprint.definition().spec().getState().getSchema());
        } catch (UnsupportedOperationException notYet) {
            return Optional.empty();
        }
        if (!passes.present()) {
            return Optional.empty();
        }
        // The load's own snapshot anchor: the handoff receipt may carry a pass's (ADR 0057).
        String loadAnchor = adapter.ledger(state, blueprint.definition().spec().getState().getSchema())
                .findByRunKey(blueprint.identity().runKey()).map(io.dpone.backfill.core.ledger.CampaignRecord::anchorXmin)
                .orElse(status.getHandoff().getAnchorXmin());
        ReconcileReport report = ReconcileReport.read(passes, blueprint.identity().runKey(), loadAnchor,
                blueprint.definition().spec().getChunk());
        return report.any() ? Optional.of(report) : Optional.empty();
    }
}
