package io.dpone.backfill.cli.status;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.cli.PrettyJson;
import io.dpone.backfill.core.campaign.ChunkSpec;
import io.dpone.backfill.core.reconcile.PassRecord;
import io.dpone.backfill.core.reconcile.QueuedKey;
import io.dpone.backfill.core.reconcile.ReconcileLedger;

import java.util.List;
import java.util.Optional;

/**
 * The receiving report of reconciliation (issue 38), as {@code reconcile} and {@code status} show it: the passes
 * (each one's anchors and what it upserted, deleted and queued), the queue (its count and a bounded sample), the
 * anchor an incremental sync starts from, and whether the published table has caught up. A pass's key digests were
 * equal when its survey found no bucket whose keys differ (the rows it staged counted in): then, at its anchor, the
 * published table held exactly the source's keys.
 */
public final class ReconcileReport {
    /** Queued keys listed; {@code status --format json} and {@code reconcile --format json} show as many. */
    public static final int SAMPLE = 20;

    private final List<PassRecord> passes;
    private final long undecided;
    private final List<QueuedKey> sample;
    private final String handoffAnchor;
    private final ChunkSpec chunk;

    private ReconcileReport(List<PassRecord> passes, long undecided, List<QueuedKey> sample, String handoffAnchor,
                            ChunkSpec chunk) {
        this.passes = passes;
        this.undecided = undecided;
        this.sample = sample;
        this.handoffAnchor = handoffAnchor;
        this.chunk = chunk;
    }

    /**
     * Read from the ledger; {@code handoffAnchor} is the handoff's own (the load's snapshot), which a finished pass
     * supersedes as the sync anchor; {@code chunk} the campaign's plan, what the load covered.
     */
    public static ReconcileReport read(ReconcileLedger ledger, String runKey, String handoffAnchor, ChunkSpec chunk) {
        return new ReconcileReport(ledger.passes(runKey), ledger.undecided(runKey), ledger.queue(runKey, SAMPLE), handoffAnchor,
                chunk);
    }

    public boolean any() {
        return !passes.isEmpty();
    }

    private Optional<PassRecord> lastFinished() {
        return PassRecord.lastFinished(passes);
    }

    /** The anchor an incremental sync starts from: the last finished pass's, else the handoff's. */
    public String syncAnchor() {
        return lastFinished().map(PassRecord::anchor).orElse(handoffAnchor);
    }

    /** Caught up: the last pass finished and no key waits for a decision. */
    public boolean caughtUp() {
        return !passes.isEmpty() && passes.get(passes.size() - 1).finished() && undecided == 0;
    }

    public long undecided() {
        return undecided;
    }

    /** What to do next, as a person acts on it. */
    public String nextAction() {
        if (!passes.isEmpty() && !passes.get(passes.size() - 1).finished()) {
            return "pass " + passes.get(passes.size() - 1).pass() + " was interrupted: run `backfill reconcile` again to"
                    + " finish it (ranges already reconciled are not read again)";
        }
        if (undecided > 0) {
            return undecided + " key(s) were written in the published table by someone else after publication and wait for"
                    + " a decision: `backfill reconcile <campaign file> --accept KEY` (write the source's version),"
                    + " `--keep KEY` (keep the target's), or `--accept-all`; then the next pass converges";
        }
        return "start incremental sync from the XMin anchor " + syncAnchor()
                + lastFinished().map(p -> " (reconciliation pass " + p.pass() + ")").orElse("");
    }

    public List<String> textLines() {
        List<String> lines = new java.util.ArrayList<>();
        for (PassRecord p : passes) {
            lines.add("reconciliation pass " + p.pass() + ": anchor " + p.since() + " -> " + p.anchor() + ", "
                    + p.totals().upserted() + " upserted, " + p.totals().deleted() + " deleted, " + p.totals().queued()
                    + " queued" + (p.totals().keysCompared() ? ", key digests differed (keys compared)" : ", key digests equal")
                    + (p.finished() ? "" : " (interrupted after " + p.chunksDone() + " range(s))"));
        }
        lines.add("reconciliation queue: " + undecided + " key(s) waiting for a decision"
                + (sample.isEmpty() ? "" : ": " + String.join("; ", sample.stream().limit(5)
                .map(q -> q.key() + (q.decision() == null ? "" : " [" + q.decision().wireName() + "]") + " (" + q.reason() + ")")
                .toList()) + (sample.size() > 5 ? "; ..." : "")));
        lines.add("incremental sync anchor: " + syncAnchor() + (caughtUp() ? "; caught up" : "; not caught up"));
        return lines;
    }

    public ObjectNode json() {
        ObjectNode root = PrettyJson.object();
        // Coverage: every source row at the load's snapshot lies in exactly one range (keyed ranges cover the whole
        // domain, NOT NULL keys; block ranges the whole heap); what was written since is the passes' to read.
        ObjectNode coverage = root.putObject("coverage");
        coverage.put("chunkKind", chunk.getKind().wireName());
        coverage.put("chunkColumn", chunk.getKind().keyed() ? chunk.getColumn() : null);
        coverage.put("ranges", chunk.getBuckets());
        coverage.put("loadSnapshotAnchor", handoffAnchor);
        coverage.put("rowsOutsideRanges", 0);
        coverage.put("writtenSinceLoad", lastFinished().map(p -> "read by passes up to pass " + p.pass() + " (anchor "
                + p.anchor() + ")").orElse("not read yet: no pass has finished"));
        ArrayNode list = root.putArray("passes");
        for (PassRecord p : passes) {
            ObjectNode n = list.addObject();
            n.put("pass", p.pass());
            n.put("sinceAnchor", p.since());
            n.put("anchor", p.anchor());
            n.put("startedAt", p.startedAt().toString());
            n.put("finishedAt", p.finished() ? p.finishedAt().toString() : null);
            n.put("rangesReconciled", p.chunksDone());
            n.put("upserted", p.totals().upserted());
            n.put("deleted", p.totals().deleted());
            n.put("queued", p.totals().queued());
            n.put("keyDigestsEqual", !p.totals().keysCompared());
        }
        ObjectNode queue = root.putObject("queue");
        queue.put("undecided", undecided);
        ArrayNode keys = queue.putArray("sample");
        sample.forEach(q -> keys.addObject().put("key", q.key()).put("reason", q.reason()).put("pass", q.pass())
                .put("decision", q.decision() == null ? null : q.decision().wireName()));
        root.put("syncAnchor", syncAnchor());
        lastFinished().ifPresent(p -> root.put("syncAnchorFromPass", p.pass())
                .put("keyDigestsEqualAtSyncAnchor", !p.totals().keysCompared()));
        root.put("caughtUp", caughtUp());
        root.put("recommendedAction", nextAction());
        return root;
    }
}
