package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.reconcile.KeyDecision;
import io.dpone.backfill.targets.mssql.RecordingConnection;
import io.dpone.backfill.targets.mssql.WorstCaseNames;
import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every statement the SQL Server reconciliation ledger sends, over a 128-character state schema holding every
 * character quoting must survive, obeys the grammar rules and binds each marker once; a decision is looked up by
 * the SHA-256 of the key's text, never by the text under a collation. No server: a recording connection.
 */
class MssqlReconcileLedgerStatementsTest {
    private static final String SCHEMA = WorstCaseNames.identifier("state");

    @Test
    void everyLedgerStatementOverAWorstCaseSchemaObeysTheGrammarAndBindsEachMarker() {
        RecordingConnection recording = new RecordingConnection();
        Map<String, Object> pass = new LinkedHashMap<>();
        pass.put("pass", 1);
        pass.put("since_anchor", "740");
        pass.put("anchor", "752");
        pass.put("started_at", LocalDateTime.of(2026, 12, 5, 3, 0));
        pass.put("finished_at", null);
        // No unfinished pass: openPass inserts one, with the first pass's mark.
        recording.answer("AND p.finished_at IS NULL", List.of());
        recording.answer("AND p.pass = ?", List.of(pass));
        recording.answer("ORDER BY p.pass", List.of(pass));
        MssqlReconcileLedger ledger = new MssqlReconcileLedger(recording.connection(), SCHEMA);
        CampaignLease lease = new CampaignLease("run-1", "driver", 0);

        ledger.ensureSchema();
        ledger.present();
        ledger.openPass(lease, "740", "752");
        ledger.reconciledRanges("run-1", 1);
        ledger.finishPass(lease, 1);
        ledger.passes("run-1");
        ledger.decide("run-1", List.of("(42)", "(\"a,b\")"), KeyDecision.ACCEPT);
        ledger.decide("run-1", List.of(), KeyDecision.KEEP);
        ledger.keysDecided("run-1", KeyDecision.ACCEPT);
        ledger.undecided("run-1");
        ledger.queue("run-1", 10);

        assertThat(recording.sent()).isNotEmpty().allSatisfy(s -> assertThat(s.problems()).as(s.sql()).isEmpty());
        assertThat(recording.sent()).anySatisfy(s -> assertThat(s.sql()).contains("MIN_ACTIVE_ROWVERSION()"));
        assertThat(recording.sent()).filteredOn(s -> s.sql().contains("key_sha = ?"))
                .anySatisfy(s -> assertThat(s.parameter(3)).isEqualTo(PassKey.sha("(42)")));
    }
}
