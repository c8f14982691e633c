package io.dpone.backfill.cli.certify;

import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.plan.CampaignBlueprint;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The invariants of one scenario, read from the scratch tables and the scratch ledger: the state the crash must
 * leave at its fault point, and after the resume: no missing or duplicate key against the scratch source, the
 * published table equal to the source, receipts and ledger agreeing both ways, one publication and one handoff
 * receipt, the older generation's shadow untouched.
 */
public final class ScenarioChecks {
    private final TableProbe target;
    private final TableProbe source;
    private final TargetDialect dialect;
    private final List<String> uniqueKey;
    private final long sourceRows;
    private final String state;

    ScenarioChecks(TableProbe target, TableProbe source, TargetDialect dialect, String scratchSchema, List<String> uniqueKey,
                   long sourceRows) {
        this.target = target;
        this.source = source;
        this.dialect = dialect;
        this.uniqueKey = uniqueKey;
        this.sourceRows = sourceRows;
        this.state = scratchSchema;
    }

    String liveCountSql() {
        return dialect.count(target.table(CertifyScratch.LIVE_TABLE));
    }

    private String ledger(String table) {
        return dialect.qualified(state, table);
    }

    /**
     * Waits (at most 30 s) until the server has ended the killed driver's sessions, so the checks read what the
     * server kept of them: their open transactions rolled back.
     */
    void awaitDriverSessionsGone() throws InterruptedException {
        String sql = dialect == TargetDialect.POSTGRES
                ? "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'backfill-driver%' AND datname = current_database()"
                : "SELECT COUNT(*) FROM sys.dm_exec_sessions WHERE program_name LIKE 'backfill-driver%'";
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            try {
                if (target.single(sql) <= 0) {
                    return;
                }
            } catch (SQLException e) {
                return; // not visible to this login: the checks below wait on the locks instead
            }
            Thread.sleep(100);
        }
    }

    /** What the crash must have left, point by point, before anything resumes. */
    void afterCrash(Scenario scenario, CampaignBlueprint blueprint, ScenarioOutcome outcome) throws Exception {
        awaitDriverSessionsGone();
        String runKey = blueprint.identity().runKey();
        FaultPoint point = scenario.point();
        long live = target.count(CertifyScratch.LIVE_TABLE);
        long published = target.single("SELECT count(*) FROM " + ledger("publication_receipt") + " WHERE run_key = ?", runKey);
        switch (point) {
            case AFTER_CLAIM, MID_COPY, BEFORE_COMMIT -> {
                long receipts = chunkReceipts(runKey, outcome.fault.chunk());
                outcome.check("crash-left-no-trace-of-the-chunk", receipts == 0 && live == 0, "chunk " + outcome.fault.chunk()
                        + " has " + receipts + " receipt(s) after the crash (its transaction rolled back whole); live table "
                        + live + " rows (the old one)");
            }
            case AFTER_COMMIT -> {
                long receipts = chunkReceipts(runKey, outcome.fault.chunk());
                String stateOf = target.text("SELECT state FROM " + ledger("chunk") + " WHERE run_key = ? AND chunk_id = ?",
                        runKey, outcome.fault.chunk());
                outcome.check("crash-left-receipt-and-ledger-committed", receipts == 1 && "committed".equals(stateOf),
                        "chunk " + outcome.fault.chunk() + ": " + receipts + " receipt, ledger row " + stateOf
                                + " (one transaction); the lane died before it saw the commit");
            }
            case IN_PREPARE -> {
                String phase = target.text("SELECT phase FROM " + ledger("campaign") + " WHERE run_key = ?", runKey);
                outcome.check("crash-left-campaign-unprepared", "Planned".equals(phase) && live == 0,
                        "campaign phase " + phase + " after the crash; live table " + live + " rows");
            }
            case BEFORE_PUBLISH, IN_PUBLISH -> {
                long shadow = target.exists(blueprint.artifacts().shadowTable()) ? target.count(blueprint.artifacts().shadowTable()) : -1;
                boolean held = live == 0 && published == 0 && shadow == sourceRows;
                outcome.check("crash-left-old-table-live", held,
                        "live table " + live + " rows (the old one had 0), " + published + " publication receipt(s), validated"
                                + " shadow " + shadow + " rows" + (point == FaultPoint.IN_PUBLISH ? "; the swap transaction rolled"
                                + " back with the driver's session" : "") + (held ? "" : "; the run's last lines:\n" + outcome.crashLog));
            }
            case AFTER_PUBLISH -> {
                long handoff = target.single("SELECT count(*) FROM " + ledger("handoff_receipt") + " WHERE run_key = ?", runKey);
                outcome.check("crash-left-publication-without-handoff", live == sourceRows && published == 1 && handoff == 0,
                        "live table " + live + " rows (the new one), " + published + " publication receipt, " + handoff
                                + " handoff receipt");
            }
        }
    }

    /** The epoch of a chunk's receipt, to prove a committed chunk is not loaded again; null without one. */
    Long receiptEpoch(CampaignBlueprint blueprint, int chunk) throws SQLException {
        if (chunk < 0) {
            return null;
        }
        long epoch = target.single("SELECT epoch FROM " + ledger("chunk_receipt") + " WHERE run_key = ? AND chunk_id = ?",
                blueprint.identity().runKey(), chunk);
        return epoch < 0 ? null : epoch;
    }

    void afterResume(Scenario scenario, CampaignBlueprint blueprint, ScenarioOutcome outcome, Long epochBefore,
                     Certification.OlderGeneration older) throws SQLException {
        String runKey = blueprint.identity().runKey();
        keys(outcome);
        content(outcome);
        receiptsAndLedger(runKey, blueprint, outcome);
        if (scenario.point() == FaultPoint.AFTER_COMMIT && epochBefore != null) {
            Long after = receiptEpoch(blueprint, outcome.fault.chunk());
            outcome.check("committed-chunk-replayed-from-its-receipt", epochBefore.equals(after), "chunk "
                    + outcome.fault.chunk() + " receipt epoch " + epochBefore + " before the resume, " + after
                    + " after: the resume found the receipt and did not read the source for it again");
        }
        String backup = blueprint.artifacts().backupTable();
        long backupRows = target.exists(backup) ? target.count(backup) : -1;
        outcome.check("backup-of-the-old-table-kept", backupRows == 0, "backup " + backup + " holds " + backupRows
                + " rows (the old live table had 0)");
        if (older != null) {
            boolean exists = target.exists(older.shadowTable());
            long rows = exists ? target.count(older.shadowTable()) : -1;
            outcome.check("older-generation-shadow-preserved", rows == older.rows(), "the older generation's shadow "
                    + older.shadowTable() + " " + (exists ? "holds " + rows + " rows" : "is missing") + " (expected "
                    + older.rows() + ")");
        }
    }

    private long chunkReceipts(String runKey, int chunk) throws SQLException {
        return target.single("SELECT count(*) FROM " + ledger("chunk_receipt") + " WHERE run_key = ? AND chunk_id = ?", runKey, chunk);
    }

    private void keys(ScenarioOutcome outcome) throws SQLException {
        List<String> expected = source.rows(source.selectKeys(CertifyScratch.SOURCE_TABLE, uniqueKey));
        List<String> published = target.rows(target.selectKeys(CertifyScratch.LIVE_TABLE, uniqueKey));
        Set<String> sourceKeys = new HashSet<>(expected);
        Map<String, Integer> times = new HashMap<>();
        for (String k : published) {
            times.merge(k, 1, Integer::sum);
        }
        long duplicates = times.values().stream().mapToLong(n -> n - 1).sum();
        long missing = sourceKeys.stream().filter(k -> !times.containsKey(k)).count();
        long unexpected = times.keySet().stream().filter(k -> !sourceKeys.contains(k)).count();
        outcome.missingKeys = missing;
        outcome.duplicateKeys = duplicates;
        outcome.unexpectedKeys = unexpected;
        outcome.publishedRows = published.size();
        outcome.check("no-missing-or-duplicate-key", missing == 0 && duplicates == 0 && unexpected == 0
                        && published.size() == expected.size(),
                published.size() + " published rows for " + expected.size() + " source rows: " + missing + " missing, "
                        + duplicates + " duplicate, " + unexpected + " unexpected key(s)");
    }

    /** Row content, on a PostgreSQL target: every row's text form, compared as multisets. */
    private void content(ScenarioOutcome outcome) throws SQLException {
        if (dialect != TargetDialect.POSTGRES) {
            return;
        }
        List<String> columns = target.rows("SELECT a.attname FROM pg_attribute a WHERE a.attrelid = to_regclass(?) AND a.attnum > 0"
                + " AND NOT a.attisdropped ORDER BY a.attnum", target.table(CertifyScratch.LIVE_TABLE));
        List<String> sourceColumns = source.rows("SELECT a.attname FROM pg_attribute a WHERE a.attrelid = to_regclass(?)"
                + " AND a.attnum > 0 AND NOT a.attisdropped", source.table(CertifyScratch.SOURCE_TABLE));
        List<String> common = columns.stream().filter(sourceColumns::contains).toList();
        String row = "md5(ROW(" + String.join(", ", common.stream().map(dialect::quote).toList()) + ")::text)";
        List<String> expected = new ArrayList<>(source.rows("SELECT " + row + " FROM " + source.table(CertifyScratch.SOURCE_TABLE)));
        List<String> published = new ArrayList<>(target.rows("SELECT " + row + " FROM " + target.table(CertifyScratch.LIVE_TABLE)));
        Collections.sort(expected);
        Collections.sort(published);
        long differing = 0;
        Map<String, Integer> diff = new HashMap<>();
        expected.forEach(r -> diff.merge(r, 1, Integer::sum));
        published.forEach(r -> diff.merge(r, -1, Integer::sum));
        for (int d : diff.values()) {
            differing += Math.abs(d);
        }
        outcome.check("published-equals-source", expected.equals(published), common.size() + " columns of " + expected.size()
                + " rows compared as text: " + (differing == 0 ? "equal" : differing + " row version(s) differ"));
    }

    private void receiptsAndLedger(String runKey, CampaignBlueprint blueprint, ScenarioOutcome outcome) throws SQLException {
        String chunk = ledger("chunk");
        String receipt = ledger("chunk_receipt");
        long chunks = target.single("SELECT count(*) FROM " + chunk + " WHERE run_key = ?", runKey);
        long committed = target.single("SELECT count(*) FROM " + chunk + " WHERE run_key = ? AND state = 'committed'", runKey);
        long receiptsWithoutCommit = target.single("SELECT count(*) FROM " + receipt + " r WHERE r.run_key = ? AND NOT EXISTS"
                + " (SELECT 1 FROM " + chunk + " c WHERE c.run_key = r.run_key AND c.chunk_id = r.chunk_id"
                + " AND c.state = 'committed' AND c.epoch = r.epoch AND c.rows_loaded = r.rows_loaded)", runKey);
        long commitsWithoutReceipt = target.single("SELECT count(*) FROM " + chunk + " c WHERE c.run_key = ? AND c.state = 'committed'"
                + " AND NOT EXISTS (SELECT 1 FROM " + receipt + " r WHERE r.run_key = c.run_key AND r.chunk_id = c.chunk_id)", runKey);
        long receiptRows = target.single("SELECT COALESCE(SUM(rows_loaded), 0) FROM " + receipt + " WHERE run_key = ?", runKey);
        outcome.check("receipts-and-ledger-agree", chunks == Certification.CHUNKS && committed == chunks
                        && receiptsWithoutCommit == 0 && commitsWithoutReceipt == 0 && receiptRows == outcome.publishedRows,
                committed + " of " + chunks + " chunks committed; " + receiptsWithoutCommit + " receipt(s) without a matching"
                        + " committed ledger row (epoch, rows), " + commitsWithoutReceipt + " committed row(s) without a receipt;"
                        + " receipts count " + receiptRows + " rows, the published table holds " + outcome.publishedRows);
        long publications = target.single("SELECT count(*) FROM " + ledger("publication_receipt") + " WHERE run_key = ?", runKey);
        long rowsPublished = target.single("SELECT rows_published FROM " + ledger("publication_receipt") + " WHERE run_key = ?", runKey);
        long handoffs = target.single("SELECT count(*) FROM " + ledger("handoff_receipt") + " WHERE run_key = ?", runKey);
        String phase = target.text("SELECT phase FROM " + ledger("campaign") + " WHERE run_key = ?", runKey);
        outcome.check("published-once-and-handed-off", publications == 1 && rowsPublished == sourceRows && handoffs == 1
                        && "HandoffCommitted".equals(phase),
                publications + " publication receipt (" + rowsPublished + " rows), " + handoffs + " handoff receipt, phase " + phase);
    }
}
