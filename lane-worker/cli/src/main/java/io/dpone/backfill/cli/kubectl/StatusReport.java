package io.dpone.backfill.cli.kubectl;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.core.campaign.CampaignProgress;
import io.dpone.backfill.core.campaign.HandoffStatus;
import io.dpone.backfill.core.campaign.PublicationStatus;

import java.util.List;
import java.util.Objects;

/** Renders a {@link CampaignSnapshot} for a person: one section a line, the next action last. */
public final class StatusReport {
    private StatusReport() {
    }

    static String render(CampaignSnapshot s) {
        StringBuilder out = new StringBuilder();
        BackfillCampaignStatus st = s.status();
        line(out, "campaign", s.namespace() + "/" + s.name() + (st == null || st.getRunKey() == null ? "" : "  run key " + st.getRunKey()));
        if (st == null || st.getPhase() == null) {
            line(out, "phase", "not yet observed by the operator (is it running and watching " + s.namespace() + "?)");
            events(out, s.events());
            return out.toString();
        }
        boolean stale = !Objects.equals(st.getObservedGeneration(), s.generation());
        line(out, "phase", st.getPhase() + (stale ? "  (status is of generation " + st.getObservedGeneration() + "; the spec is at "
                + s.generation() + ": the operator has not caught up yet)" : ""));
        line(out, "conditions", conditions(st.getConditions()));
        CampaignProgress p = st.getProgress();
        if (p != null) {
            line(out, "progress", ProgressBar.of(p.getCommittedChunks(), p.getTotalChunks()) + "  " + p.getChunks() + " chunks committed ("
                    + p.getRunningChunks() + " running, " + p.getPendingChunks() + " pending, " + p.getFailedChunks() + " failed)");
            line(out, "rows", String.format("%,d loaded", p.getRowsLoaded()));
            line(out, "rate", String.format("%,.1f rows/s", p.getRowsPerSecond()));
            line(out, "eta", (p.getEta() == null ? "unknown" : p.getEta())
                    + (p.getEtaBasis() == null ? "" : "  (" + p.getEtaBasis() + ")"));
        }
        if (st.getThrottle() != null) {
            line(out, "throttle", io.dpone.backfill.cli.status.ThrottleText.of(st.getThrottle()));
        }
        lanes(out, s.lanes());
        if (p != null && p.getFailedChunks() > 0) {
            line(out, "failed", p.getFailedChunks() + " chunk" + (p.getFailedChunks() == 1 ? "" : "s")
                    + " failed; their last errors are in the ledger (backfill status campaign.yaml --format json) and in the lane logs");
        }
        receipts(out, st.getPublication(), st.getHandoff());
        reconciliation(out, st.getReconciliation());
        events(out, s.events());
        line(out, "next", st.getRecommendedAction() == null ? "none" : st.getRecommendedAction());
        return out.toString();
    }

    private static String conditions(List<CampaignCondition> conditions) {
        if (conditions == null || conditions.isEmpty()) {
            return "none";
        }
        StringBuilder b = new StringBuilder();
        for (CampaignCondition c : conditions) {
            if (!b.isEmpty()) {
                b.append("  ");
            }
            b.append(c.getType()).append('=').append(c.getStatus());
            if ("True".equals(c.getStatus()) && c.getReason() != null && !c.getReason().isBlank()) {
                b.append(" (").append(c.getReason()).append(')');
            }
        }
        return b.toString();
    }

    private static void lanes(StringBuilder out, List<LaneState> lanes) {
        if (lanes.isEmpty()) {
            line(out, "lanes", "no lane pods");
            return;
        }
        line(out, "lanes", lanes.size() + " pod" + (lanes.size() == 1 ? "" : "s"));
        int podWidth = Math.max(3, lanes.stream().mapToInt(l -> l.pod().length()).max().orElse(3));
        out.append(String.format("  %-5s %-8s %-" + podWidth + "s %-9s %s%n", "LANE", "ATTEMPT", "POD", "RESTARTS", "STATE"));
        for (LaneState l : lanes) {
            out.append(String.format("  %-5s %-8s %-" + podWidth + "s %-9d %s%n", l.lane(), l.attempt(), l.pod(), l.restarts(), l.state()));
        }
    }

    private static void receipts(StringBuilder out, PublicationStatus pub, HandoffStatus handoff) {
        if (pub != null) {
            StringBuilder b = new StringBuilder(String.valueOf(pub.getMode()));
            b.append(", ").append(pub.getPhase());
            if (pub.getShadowTable() != null) {
                b.append("; shadow ").append(pub.getShadowTable()).append(", backup ").append(pub.getBackupTable());
            }
            b.append("; validation ").append(pub.getValidation());
            if (pub.getExpectedRows() != null) {
                b.append(String.format(" (%,d expected, %,d loaded, %d null keys, %d duplicate keys)", pub.getExpectedRows(),
                        pub.getActualRows(), pub.getNullKeys(), pub.getDuplicateKeys()));
            }
            if (pub.getContentCheck() != null) {
                b.append("; content check ").append(pub.getContentCheck()).append(pub.getContentMatches() == null ? ""
                        : pub.getContentMatches() ? ": stored rows match what was sent" : ": stored rows differ from what was sent");
            }
            if (pub.getApproval() != null) {
                b.append("; approval ").append(pub.getApproval()).append(pub.getApprovedBy() == null ? ": not yet approved"
                        : ": approved by " + pub.getApprovedBy() + " at " + pub.getApprovedAt());
            }
            if (pub.getGroup() != null) {
                b.append("; group ").append(pub.getGroup()).append(": ").append(pub.getGroupStanding());
            }
            b.append("; receipt ").append(pub.getReceiptId() == null ? "none yet" : pub.getReceiptId());
            line(out, "publication", b.toString());
        }
        if (handoff != null) {
            line(out, "handoff", "XMin anchor " + (handoff.getAnchorXmin() == null ? "not captured yet" : handoff.getAnchorXmin())
                    + (handoff.getFromPass() == null ? "" : " (reconciliation pass " + handoff.getFromPass() + ")")
                    + "; receipt " + (handoff.getReceiptId() == null ? "none yet" : handoff.getReceiptId()
                    + (handoff.getCommittedAt() == null ? "" : " at " + handoff.getCommittedAt())));
        }
    }

    /**
     * The receiving report of the status's reconciliation section (issue 38): the passes shown (the last five), the
     * queue and a sample of its keys, the sync anchor and whether the table caught up.
     */
    static void reconciliation(StringBuilder out, io.dpone.backfill.core.campaign.ReconciliationStatus r) {
        if (r == null) {
            return;
        }
        line(out, "reconcile", r.getPassCount() + " pass(es) (" + r.getMode() + "): " + r.getUpserted() + " upserted, "
                + r.getDeleted() + " deleted, " + r.getQueuedByPasses() + " queued in all");
        for (io.dpone.backfill.core.campaign.ReconciliationStatus.Pass p : r.getPasses()) {
            out.append(String.format("  pass %d: anchor %s -> %s, %d upserted, %d deleted, %d queued, key digests %s%s%n",
                    p.getPass(), p.getSinceAnchor(), p.getAnchor(), p.getUpserted(), p.getDeleted(), p.getQueued(),
                    Boolean.TRUE.equals(p.getKeyDigestsEqual()) ? "equal" : "differed (keys compared)",
                    Boolean.TRUE.equals(p.getFinished()) ? "" : " (interrupted)"));
        }
        line(out, "queue", r.getQueue() + " key(s) waiting for a decision" + (r.getQueueSample().isEmpty() ? ""
                : ": " + String.join(", ", r.getQueueSample()) + (r.getQueue() > r.getQueueSample().size() ? ", ..." : "")));
        line(out, "sync anchor", (r.getSyncAnchor() == null ? "none yet (no pass finished)" : r.getSyncAnchor() + " (pass "
                + r.getSyncAnchorFromPass() + ")") + (Boolean.TRUE.equals(r.getCaughtUp()) ? "; caught up" : "; not caught up"));
    }

    private static void events(StringBuilder out, List<EventLine> events) {
        if (events.isEmpty()) {
            line(out, "events", "none");
            return;
        }
        line(out, "events", "last " + events.size());
        for (EventLine e : events) {
            out.append(String.format("  %-20s %-7s %-22s %s%n", e.at(), e.type(), e.reason(), e.message()));
        }
    }

    private static void line(StringBuilder out, String label, String value) {
        out.append(String.format("%-12s %s%n", label, value));
    }
}
