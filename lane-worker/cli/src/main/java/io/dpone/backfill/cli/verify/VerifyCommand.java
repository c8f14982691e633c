package io.dpone.backfill.cli.verify;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.cli.CampaignOptions;
import io.dpone.backfill.cli.OutputFormat;
import io.dpone.backfill.cli.PrettyJson;
import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.verify.ChunkVerdict;
import io.dpone.backfill.core.verify.Verification;
import io.dpone.backfill.core.verify.VerificationSummary;
import io.dpone.backfill.lane.ExitCodes;
import io.dpone.backfill.targets.TargetAdapter;
import io.dpone.backfill.wiring.CampaignVerifier;
import io.dpone.backfill.wiring.Connectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code backfill verify}: recomputes every chunk's content digest on the source and on the published table and
 * names each chunk that differs from what its lane loaded (ADR 0018). Opt-in: it reads both tables once more. It
 * writes only its result, to the ledger, where status and the evidence JSON show it.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Compare the published table and the source with the content digests the lanes recorded, chunk by chunk;"
                + " name every chunk that differs. Reads the source and the published table once more.",
                "Exit 0: every chunk agrees (chunks changed at the source since the anchor are named, and pass);"
                        + " exit 7: at least one chunk differs; exit 1: the campaign cannot be verified (not published, rolled back)."})
public final class VerifyCommand implements Callable<Integer> {
    /** Chunks listed in the text output; the JSON lists up to {@link #MAX_JSON_CHUNKS}. */
    static final int MAX_TEXT_CHUNKS = 100;
    static final int MAX_JSON_CHUNKS = 1000;

    @Mixin
    CampaignOptions campaign;

    @Option(names = "--format", defaultValue = "text", description = "text or json.")
    OutputFormat format;

    @Override
    public Integer call() throws Exception {
        CampaignBlueprint blueprint = campaign.blueprint();
        BackfillCampaignSpec spec = blueprint.definition().spec();
        TargetAdapter adapter = Connectors.target(spec.getTarget().getType());
        ConnectionSettings sourceSettings = campaign.source(spec);
        ConnectionSettings targetSettings = campaign.target(spec);
        try (Connection source = sourceSettings.open("backfill-verify-source");
             Connection target = targetSettings.open("backfill-verify");
             Connection state = targetSettings.open("backfill-verify-state")) {
            LedgerStore ledger = adapter.ledger(state, spec.getState().getSchema());
            Verification v;
            try {
                v = CampaignVerifier.verify(blueprint, ledger, source, target,
                        line -> System.err.println("backfill: verify: " + line));
            } catch (CampaignVerifier.NotVerifiableException e) {
                System.err.println("backfill: cannot verify: " + e.getMessage());
                return ExitCodes.FAILURE;
            }
            ObjectNode summary = VerificationSummary.of(v, Instant.now());
            ledger.recordVerification(blueprint.identity().runKey(), summary.toString());
            if (format == OutputFormat.json) {
                ArrayNode chunks = summary.putArray("chunks");
                notEqual(v).stream().limit(MAX_JSON_CHUNKS).forEach(c -> {
                    ObjectNode node = chunks.addObject().put("chunk_id", c.chunkId()).put("outcome", c.outcome().wireName())
                            .put("reason", c.reason());
                    node.put("receipt", c.receipt() == null ? null : c.receipt().wire());
                    node.put("source", c.sourceNow() == null ? null : c.sourceNow().wire());
                    node.put("published", c.published() == null ? null : c.published().wire());
                    if (c.changedSinceAnchor() > 0) {
                        node.put("changed_since_anchor", c.changedSinceAnchor());
                    }
                });
                System.out.println(PrettyJson.write(summary));
            } else {
                text(blueprint, v);
            }
            return v.passed() ? ExitCodes.OK : ExitCodes.DIFFERENCES;
        }
    }

    private static List<ChunkVerdict> notEqual(Verification v) {
        return v.verdicts().stream().filter(c -> c.outcome() != ChunkVerdict.Outcome.EQUAL).toList();
    }

    private static void text(CampaignBlueprint blueprint, Verification v) {
        System.out.println("verify " + blueprint.definition().spec().getBackfillId() + " (run key " + blueprint.identity().runKey()
                + "): " + v.verdicts().size() + " chunks (" + (v.physical() ? "physical" : "key range") + "): "
                + v.count(ChunkVerdict.Outcome.EQUAL) + " equal, " + v.count(ChunkVerdict.Outcome.DIFFERS) + " differ, "
                + v.count(ChunkVerdict.Outcome.CHANGED_SINCE_ANCHOR) + " changed at the source since the anchor, "
                + v.count(ChunkVerdict.Outcome.NO_DIGEST) + " with no digest recorded");
        List<ChunkVerdict> shown = notEqual(v);
        shown.stream().limit(MAX_TEXT_CHUNKS).forEach(c -> System.out.println("chunk " + c.chunkId() + " "
                + range(blueprint, c.chunkId()) + ": " + c.outcome().wireName().replace('_', ' ') + ": " + c.reason()));
        if (shown.size() > MAX_TEXT_CHUNKS) {
            System.out.println("... and " + (shown.size() - MAX_TEXT_CHUNKS) + " more (--format json lists up to " + MAX_JSON_CHUNKS + ")");
        }
        if (v.physical()) {
            System.out.println("physical chunks: the published table cannot place a row in a source block range, so each chunk"
                    + " compares the source now with its receipt, and the published table as a whole ("
                    + v.publishedTotal().rows() + " rows) with the sum of the receipts (" + v.receiptsTotal().rows() + " rows): "
                    + (v.tableTotalsAgree() ? "they agree" : "they DIFFER"));
        }
        System.out.println("result: " + (v.passed() ? "passed" : "differences found (exit " + ExitCodes.DIFFERENCES + ")")
                + "; recorded in the ledger (backfill status shows it)");
    }

    private static String range(CampaignBlueprint blueprint, int chunkId) {
        ChunkRange r = blueprint.plan().chunk(chunkId);
        if (!blueprint.plan().kind().keyed()) {
            return "(blocks)";
        }
        String lower = blueprint.plan().boundText(r.lowerInclusive());
        String upper = blueprint.plan().boundText(r.upperExclusive());
        return "[" + (lower == null ? "-inf" : lower) + ", " + (upper == null ? "+inf" : upper) + ")";
    }
}
