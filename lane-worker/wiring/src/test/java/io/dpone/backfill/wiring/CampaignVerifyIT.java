package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.verify.ChunkVerdict;
import io.dpone.backfill.core.verify.Verification;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Row-content digests end to end on PostgreSQL (ADR 0018): lanes record each chunk's digest in its receipt in the
 * commit transaction; verify finds a clean campaign equal chunk by chunk, names exactly the chunk whose published
 * row was tampered with, tells a source row changed after the anchor from corruption, reports receipts without a
 * digest as such, and for physical chunks compares what it honestly can.
 */
class CampaignVerifyIT {
    private static final String CHUNKS = "{column: id, kind: integer, buckets: 6, lowerBound: 1, upperBound: 3000}";
    private static final String ITEMS = "CREATE TABLE public.items (id bigint PRIMARY KEY, qty numeric(12,2), note text,"
            + " at timestamptz, tag uuid)";
    private static final String ROWS = "INSERT INTO public.items SELECT i, i * 1.25, 'row ' || i,"
            + " timestamptz '2024-01-01 00:00+00' + i * interval '1 minute', md5(i::text)::uuid FROM generate_series(1, 3000) i";

    private CampaignHarness h;

    @BeforeEach
    void setUp() {
        h = new CampaignHarness();
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    private CampaignBlueprint published(String backfillId, String chunks, String targetTable) throws Exception {
        h.source.execute(ITEMS, ROWS);
        h.target.execute(targetTable);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign(backfillId, chunks, "  publication: {mode: shadow_swap}\n"));
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = CampaignHarness.openAndLease(s, b);
            StepResult r = h.runToSettled(b, s, lease);
            assertThat(r.phase()).as(r + " " + h.laneLog).isEqualTo(CampaignPhase.HandoffCommitted);
        }
        return b;
    }

    private Verification verify(CampaignBlueprint b) throws Exception {
        try (CampaignRuntime s = h.session(b); Connection source = h.source.connect(); Connection target = h.target.connect()) {
            return CampaignVerifier.verify(b, s.ledger(), source, target, line -> { });
        }
    }

    private Map<Integer, String> receiptDigests(CampaignBlueprint b) throws Exception {
        try (CampaignRuntime s = h.session(b)) {
            return s.ledger().chunkDigests(b.identity().runKey());
        }
    }

    private static List<Integer> chunks(Verification v, ChunkVerdict.Outcome outcome) {
        return v.verdicts().stream().filter(c -> c.outcome() == outcome).map(ChunkVerdict::chunkId).toList();
    }

    @Test
    void everyReceiptRecordsItsChunksDigestAndACleanCampaignVerifiesEqualChunkByChunk() throws Exception {
        CampaignBlueprint b = published("digest_clean", CHUNKS, ITEMS);
        Map<Integer, String> digests = receiptDigests(b);
        assertThat(digests).hasSize(b.plan().size()).doesNotContainValue(null);
        long rows = digests.values().stream().map(ChunkDigest::fromWire).mapToLong(ChunkDigest::rows).sum();
        assertThat(rows).isEqualTo(3000);
        Verification v = verify(b);
        assertThat(v.passed()).isTrue();
        assertThat(v.count(ChunkVerdict.Outcome.EQUAL)).isEqualTo(b.plan().size());
        assertThat(v.publishedTotal()).isEqualTo(v.receiptsTotal());
    }

    @Test
    void aTamperedPublishedRowIsNamedByItsChunkAndNoOtherChunk() throws Exception {
        CampaignBlueprint b = published("digest_tamper", CHUNKS, ITEMS);
        h.target.execute("UPDATE public.items SET note = 'changed' WHERE id = 1234");
        Verification v = verify(b);
        int chunk = b.plan().locate(java.math.BigInteger.valueOf(1234)).id();
        assertThat(v.passed()).isFalse();
        assertThat(chunks(v, ChunkVerdict.Outcome.DIFFERS)).containsExactly(chunk);
        ChunkVerdict verdict = v.verdicts().get(chunk);
        assertThat(verdict.reason()).contains("published table differs").contains("same keys, different values");
        assertThat(v.count(ChunkVerdict.Outcome.EQUAL)).isEqualTo(b.plan().size() - 1);
    }

    @Test
    void aSourceRowUpdatedAfterTheAnchorIsReportedAsChangedSinceTheAnchorNotAsCorruption() throws Exception {
        CampaignBlueprint b = published("digest_source", CHUNKS, ITEMS);
        h.source.execute("UPDATE public.items SET qty = qty + 1 WHERE id = 42");
        Verification v = verify(b);
        int chunk = b.plan().locate(java.math.BigInteger.valueOf(42)).id();
        assertThat(chunks(v, ChunkVerdict.Outcome.CHANGED_SINCE_ANCHOR)).containsExactly(chunk);
        assertThat(v.verdicts().get(chunk).changedSinceAnchor()).isEqualTo(1);
        assertThat(v.verdicts().get(chunk).reason()).contains("changed since the anchor");
        assertThat(v.passed()).isTrue();
    }

    @Test
    void aSourceRowDeletedAfterLoadingDiffersBecauseNothingNewerThanTheAnchorExplainsIt() throws Exception {
        CampaignBlueprint b = published("digest_delete", CHUNKS, ITEMS);
        h.source.execute("DELETE FROM public.items WHERE id = 7");
        Verification v = verify(b);
        assertThat(chunks(v, ChunkVerdict.Outcome.DIFFERS)).containsExactly(b.plan().locate(java.math.BigInteger.valueOf(7)).id());
        assertThat(v.verdicts().get(0).reason()).contains("no row is newer than the anchor");
    }

    @Test
    void aReceiptWithoutADigestIsReportedAsNoDigestRecordedNotAsADifference() throws Exception {
        CampaignBlueprint b = published("digest_old", CHUNKS, ITEMS);
        String schema = b.definition().spec().getState().getSchema();
        h.target.execute("UPDATE " + schema + ".chunk_receipt SET content_digest = NULL WHERE chunk_id = 2");
        Verification v = verify(b);
        assertThat(chunks(v, ChunkVerdict.Outcome.NO_DIGEST)).containsExactly(2);
        assertThat(v.passed()).isTrue();
        assertThat(v.verdicts().get(2).reason()).startsWith("no digest recorded");
    }

    @Test
    void aLedgerFromBeforeDigestsGainsItsColumnsAndReportsEveryChunkAsNoDigestRecorded() throws Exception {
        CampaignBlueprint b = published("digest_ledger_v0", CHUNKS, ITEMS);
        String schema = b.definition().spec().getState().getSchema();
        h.target.execute("ALTER TABLE " + schema + ".chunk_receipt DROP COLUMN content_digest",
                "ALTER TABLE " + schema + ".campaign DROP COLUMN verification");
        Verification v = verify(b);
        assertThat(v.count(ChunkVerdict.Outcome.NO_DIGEST)).isEqualTo(b.plan().size());
        assertThat(v.passed()).isTrue();
    }

    @Test
    void textRouteIntoWiderTargetTypesVerifiesEqual() throws Exception {
        CampaignBlueprint b = published("digest_text", CHUNKS, ITEMS.replace("numeric(12,2)", "numeric(20,6)").replace("bigint", "bigint"));
        try (CampaignRuntime s = h.session(b)) {
            assertThat(s.ledger().findByRunKey(b.identity().runKey()).orElseThrow().rowEncoding()).isEqualTo("postgres_copy_text");
        }
        assertThat(verify(b).passed()).isTrue();
        h.target.execute("DELETE FROM public.items WHERE id = 2999");
        Verification v = verify(b);
        assertThat(chunks(v, ChunkVerdict.Outcome.DIFFERS)).containsExactly(b.plan().locate(java.math.BigInteger.valueOf(2999)).id());
        assertThat(v.verdicts().stream().filter(c -> c.outcome() == ChunkVerdict.Outcome.DIFFERS).findFirst().orElseThrow().reason())
                .contains("rows loaded").contains("rows published");
    }

    @Test
    void physicalChunksCompareEachChunkWithTheSourceAndTheWholeTableWithTheReceipts() throws Exception {
        CampaignBlueprint b = published("digest_physical", CampaignYaml.physicalChunks(4), ITEMS);
        Verification clean = verify(b);
        assertThat(clean.physical()).isTrue();
        assertThat(clean.passed()).isTrue();
        assertThat(clean.count(ChunkVerdict.Outcome.EQUAL)).isEqualTo(b.plan().size());
        h.target.execute("UPDATE public.items SET note = 'changed' WHERE id = 1234");
        Verification tampered = verify(b);
        assertThat(tampered.passed()).isFalse();
        assertThat(tampered.tableTotalsAgree()).isFalse();
        assertThat(tampered.count(ChunkVerdict.Outcome.DIFFERS)).isZero();
    }
}
