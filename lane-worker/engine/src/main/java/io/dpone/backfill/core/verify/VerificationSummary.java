package io.dpone.backfill.core.verify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;

/**
 * The bounded record of one {@code verify} run that the ledger keeps (campaign {@code verification}) and status and
 * the evidence JSON show: counts by outcome and at most {@link #MAX_CHUNKS_LISTED} chunk ids per list.
 */
public final class VerificationSummary {
    public static final int MAX_CHUNKS_LISTED = 50;
    private static final ObjectMapper JSON = new ObjectMapper();

    private VerificationSummary() {
    }

    public static ObjectNode of(Verification v, Instant ranAt) {
        ObjectNode node = JSON.createObjectNode();
        node.put("ran_at", ranAt.toString());
        node.put("result", v.passed() ? "passed" : "differences");
        node.put("chunk_kind", v.physical() ? "physical" : "key_range");
        node.put("chunks", v.verdicts().size());
        for (ChunkVerdict.Outcome outcome : ChunkVerdict.Outcome.values()) {
            node.put(outcome.wireName(), v.count(outcome));
        }
        list(node.putArray("differing_chunks"), v, ChunkVerdict.Outcome.DIFFERS);
        list(node.putArray("changed_since_anchor_chunks"), v, ChunkVerdict.Outcome.CHANGED_SINCE_ANCHOR);
        list(node.putArray("no_digest_chunks"), v, ChunkVerdict.Outcome.NO_DIGEST);
        if (v.physical()) {
            node.put("table_totals", v.tableTotalsAgree() ? "agree" : "differ");
            node.put("receipt_rows", v.receiptsTotal().rows());
            node.put("published_rows", v.publishedTotal().rows());
        }
        return node;
    }

    private static void list(ArrayNode ids, Verification v, ChunkVerdict.Outcome outcome) {
        v.verdicts().stream().filter(c -> c.outcome() == outcome).limit(MAX_CHUNKS_LISTED).forEach(c -> ids.add(c.chunkId()));
    }

    /** A recorded summary read back, or null when it cannot be read. */
    public static ObjectNode parse(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (java.io.IOException | ClassCastException e) {
            return null;
        }
    }
}
