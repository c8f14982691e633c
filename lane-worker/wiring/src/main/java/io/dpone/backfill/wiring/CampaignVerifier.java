package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.digest.DigestTable;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.engine.PhaseDetail;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.verify.Verification;
import io.dpone.backfill.core.verify.ContentScope;
import io.dpone.backfill.core.verify.ContentDifference;
import io.dpone.backfill.core.verify.ChunkVerdict;
import io.dpone.backfill.source.ChunkReader;
import io.dpone.backfill.source.ChunkReading;
import io.dpone.backfill.source.SourceAdapter;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.targets.TargetAdapter;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code verify}'s composition (ADR 0018): reads every chunk of the source again with the chunk predicate and row
 * encoding the lanes used, streams the published table once, and compares both with the digests the receipts
 * recorded. Writes nothing but its caller's record of the result.
 */
public final class CampaignVerifier {
    private CampaignVerifier() {
    }

    /** Why a campaign cannot be verified (not started, not published, rolled back). */
    public static final class NotVerifiableException extends RuntimeException {
        public NotVerifiableException(String message) {
            super(message);
        }
    }

    public static Verification verify(CampaignBlueprint blueprint, LedgerStore ledger, Connection source, Connection target,
                                      Consumer<String> log) throws Exception {
        BackfillCampaignSpec spec = blueprint.definition().spec();
        String runKey = blueprint.identity().runKey();
        // peek: a ledger that does not exist yet is a campaign never started, not a failure (and verify creates none).
        if (ledger.peek(runKey).isEmpty()) {
            throw new NotVerifiableException("run key " + runKey + " is not in the ledger: nothing was loaded, so there is"
                    + " nothing to verify");
        }
        // A ledger written by a build before content digests gains its (nullable) digest and verification columns,
        // as every driver's start does: its receipts then read "no digest recorded".
        ledger.ensureSchema();
        CampaignRecord campaign = ledger.findByRunKey(runKey).orElseThrow();
        if (ledger.publicationReceipt(runKey).isEmpty()) {
            throw new NotVerifiableException("campaign " + spec.getBackfillId() + " has not published (phase "
                    + campaign.phase() + "): verify compares the published table with the source; run it after publication");
        }
        if (ledger.rollbackReceipt(runKey).isPresent()) {
            throw new NotVerifiableException("campaign " + spec.getBackfillId() + " was rolled back: the live table is no"
                    + " longer the one it published");
        }
        TargetType type = spec.getTarget().getType();
        TargetAdapter adapter = Connectors.target(type);
        SourceAdapter sourceAdapter = Connectors.source(spec.getSource().getType());
        HeapExtent heap = PhaseDetail.parse(campaign.detail()).heapExtent();
        ChunkPlan plan = ChunkPlanner.resolve(spec.getChunk(), heap);
        String sourceSchema = spec.getSource().getSchema();
        String sourceTable = spec.getSource().getTable();
        String schema = blueprint.artifacts().schema();
        String live = spec.getTarget().getTable();
        LoadColumns loaded = adapter.catalog(target).shape(schema, live)
                .loadColumnsFrom(sourceAdapter.catalog(source).shape(sourceSchema, sourceTable), spec.columnMapping());
        List<String> columns = loaded.source();
        List<String> keys = LaneRuntime.digestKey(columns, spec.getUniqueKey());
        if (keys == null) {
            throw new NotVerifiableException("the unique key " + spec.getUniqueKey() + " is not among the published columns "
                    + loaded.describe() + ": no content digest can be computed");
        }
        RowEncoding recorded = RowEncoding.fromWire(campaign.rowEncoding());
        RowEncoding encoding = recorded != null ? recorded : adapter.unrecordedRowEncoding();

        Map<Integer, String> recordedDigests = ledger.chunkDigests(runKey);
        ChunkDigest[] receipts = new ChunkDigest[plan.size()];
        for (int id = 0; id < receipts.length; id++) {
            receipts[id] = ChunkDigest.fromWire(recordedDigests.get(id));
        }
        log.accept("reading " + plan.size() + " chunks of " + sourceSchema + "." + sourceTable + " as " + encoding.wireName());
        ChunkReader chunks = sourceAdapter.chunks(source, new ChunkReading(plan, sourceSchema, sourceTable, columns, heap,
                campaign.anchorXmin(), keys));
        ChunkDigest[] sourceNow = new ChunkDigest[plan.size()];
        for (ChunkRange range : plan.chunks()) {
            try (ChunkRows rows = chunks.open(range, encoding)) {
                while (rows.next()) {
                    // the rows digest themselves as they pass
                }
                sourceNow[range.id()] = rows.digest();
            }
        }
        log.accept("reading the published table " + schema + "." + live);
        DigestTable published = adapter.publishedDigests(target, new SourceTable(sourceAdapter, source, sourceSchema,
                        sourceTable), loaded)
                .read(schema, live, loaded.target(), loaded.targetKey(keys), plan, encoding);
        ChangedRows changed = new ChangedRows(sourceAdapter, source, plan, sourceSchema, sourceTable, campaign.anchorXmin());
        if (!plan.kind().keyed()) {
            return Verification.physical(receipts, sourceNow, published.total(), changed::count);
        }
        Verification verification = Verification.keyRange(receipts, sourceNow, published, changed::count);
        Optional<ChunkVerdict> differing = verification.firstDiffering();
        if (differing.isEmpty()) {
            return verification;
        }
        // The first differing chunk read again on both sides, as the read-back gate does, to name the row and column.
        int chunkId = differing.get().chunkId();
        log.accept("locating the first difference in chunk " + chunkId);
        ContentScope scope = new ContentScope(schema, live, loaded, keys, plan, encoding, heap, campaign.anchorXmin());
        Optional<ContentDifference> first = ShadowReadBack.onOneSession(adapter,
                new SourceTable(sourceAdapter, source, sourceSchema, sourceTable), target).firstDifference(scope, chunkId);
        return first.map(d -> verification.withFirstDifference(chunkId, d)).orElse(verification);
    }

    /** Source rows of one chunk written at or after the anchor: rows that legitimately differ from what was loaded. */
    private record ChangedRows(SourceAdapter adapter, Connection source, ChunkPlan plan, String schema, String table,
                               String anchor) {
        long count(int chunkId) {
            if (anchor == null) {
                return 0;
            }
            try {
                return adapter.rowsChangedSince(source, schema, table, plan, plan.chunk(chunkId), anchor);
            } catch (SQLException e) {
                throw new IllegalStateException("counting chunk " + chunkId + "'s rows newer than the anchor failed: " + e.getMessage(), e);
            }
        }
    }
}
