package io.dpone.backfill.cli.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpone.backfill.cli.PrettyJson;
import io.dpone.backfill.cli.status.StatusCommand;
import io.dpone.backfill.cli.status.ProgressDisplay;
import io.dpone.backfill.cli.status.StatusReader;
import io.dpone.backfill.core.engine.PhaseDetail;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignProgress;
import io.dpone.backfill.core.campaign.PreflightStatus;
import io.dpone.backfill.core.campaign.PublicationStatus;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;

/** The bounded evidence document, shaped like the reference design's backfill result. */
public final class Evidence {

    private Evidence() {
    }

    static String json(CampaignBlueprint blueprint, LedgerStore ledger) throws Exception {
        return json(blueprint, ledger, null, null);
    }

    /**
     * {@code refusal}: the pre-flight verdict that refused the start, or null. {@code runNext}: what the run's last
     * step told the user to do (on stderr), or null; it is the evidence's {@code recommended_action} too, so a script
     * reading stdout learns what a person reading stderr did (a member waiting for its group, say).
     */
    static String json(CampaignBlueprint blueprint, LedgerStore ledger, PreflightResult refusal, String runNext) throws Exception {
        ObjectNode root = PrettyJson.object();
        ObjectNode backfill = root.putObject("backfill");
        backfill.put("backfill_id", blueprint.definition().spec().getBackfillId());
        backfill.put("run_key", blueprint.identity().runKey());
        BackfillCampaignStatus status = StatusReader.read(blueprint, ledger).orElse(null);
        if (status == null) {
            backfill.put("phase", refusal == null ? "not_started" : "refused_by_preflight");
            if (refusal != null) {
                preflight(backfill, PreflightStatus.of(refusal));
                backfill.put("recommended_action", "fix the pre-flight ERRORs (backfill doctor), then run again; nothing was created");
            }
            return PrettyJson.write(root);
        }
        backfill.put("phase", String.valueOf(status.getPhase()));
        if (status.getPreflight() != null) {
            preflight(backfill, status.getPreflight());
        }
        CampaignProgress p = status.getProgress();
        ObjectNode progress = backfill.putObject("progress");
        progress.put("pending", p.getPendingChunks());
        progress.put("running", p.getRunningChunks());
        progress.put("committed", p.getCommittedChunks());
        progress.put("failed", p.getFailedChunks());
        progress.put("rows_extracted", p.getRowsExtracted());
        progress.put("rows_loaded", p.getRowsLoaded());
        progress.put("rows_per_second", p.getRowsPerSecond());
        if (p.getEtaSeconds() != null) {
            progress.put("eta_seconds", p.getEtaSeconds());
        }
        if (p.getEtaBasis() != null) {
            progress.put("eta_basis", p.getEtaBasis());
        }
        // How the lanes moved rows (ADR 0017): binary pass-through, COPY text or decoded values.
        ledger.findByRunKey(blueprint.identity().runKey()).map(c -> c.rowEncoding())
                .ifPresent(encoding -> progress.put("row_encoding", encoding));
        PublicationStatus pub = status.getPublication();
        ObjectNode publication = backfill.putObject("publication");
        publication.put("mode", pub.getMode());
        publication.put("phase", pub.getPhase());
        publication.put("validation", pub.getValidation());
        putIfPresent(publication, "expected_rows", pub.getExpectedRows());
        putIfPresent(publication, "actual_rows", pub.getActualRows());
        putIfPresent(publication, "null_keys", pub.getNullKeys());
        putIfPresent(publication, "duplicate_keys", pub.getDuplicateKeys());
        if (pub.getCoverage() != null) {
            if (pub.getUncoveredSourceRows() == null) {
                publication.putNull("uncovered_source_rows");
            } else {
                publication.put("uncovered_source_rows", pub.getUncoveredSourceRows());
            }
            publication.put("coverage", pub.getCoverage());
        }
        // The read-back gate (ADR 0036): which check ran, whether it passed, its own seconds, and why when not content.
        ledger.findByRunKey(blueprint.identity().runKey()).map(c -> PhaseDetail.parse(c.detail()).contentCheck())
                .ifPresent(check -> {
                    ObjectNode content = publication.putObject("content_check");
                    content.put("check", check.check());
                    content.put("passed", check.passed());
                    content.put("seconds", check.seconds());
                    if (check.note() != null) {
                        content.put("note", check.note());
                    }
                });
        if (pub.getReceiptId() != null) {
            publication.put("receipt_id", pub.getReceiptId());
        }
        if (pub.getBackupRetained() != null) {
            publication.put("backup_retained", pub.getBackupRetained());
        }
        if (pub.getShadowTable() != null) {
            publication.put("shadow", pub.getShadowTable());
            publication.put("backup", pub.getBackupTable());
        }
        ObjectNode handoff = backfill.putObject("handoff");
        handoff.put("anchor_xmin", status.getHandoff().getAnchorXmin());
        if (status.getHandoff().getReceiptId() != null) {
            handoff.put("receipt_id", status.getHandoff().getReceiptId());
        }
        // The last `backfill verify` (ADR 0018): content compared chunk by chunk, when it ran.
        StatusCommand.verification(ledger, blueprint).ifPresent(v -> backfill.set("verification", v));
        backfill.put("recommended_action", runNext != null ? runNext : status.getRecommendedAction());
        return PrettyJson.write(root);
    }

    /** The end of a run for a person: the final status line and what to do next (stderr has the rest). */
    static String text(CampaignBlueprint blueprint, LedgerStore ledger, String runNext) throws Exception {
        BackfillCampaignStatus status = StatusReader.read(blueprint, ledger).orElse(null);
        if (status == null) {
            return "[not started]";
        }
        return ProgressDisplay.line(status) + System.lineSeparator() + "next: "
                + (runNext != null ? runNext : status.getRecommendedAction());
    }

    private static void preflight(ObjectNode backfill, PreflightStatus p) {
        ObjectNode node = backfill.putObject("preflight");
        node.put("result", p.getResult());
        if (p.getSkippedBy() != null) {
            node.put("skipped_by", p.getSkippedBy());
        }
        node.put("errors", p.getErrors());
        node.put("warnings", p.getWarnings());
        p.getFindings().forEach(node.putArray("findings")::add);
    }

    private static void putIfPresent(ObjectNode node, String field, Long value) {
        if (value != null) {
            node.put(field, value);
        }
    }
}
