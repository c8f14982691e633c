package io.dpone.backfill.core.engine;

import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.InMemoryLedger;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.source.AnchorCheck;
import io.dpone.backfill.core.source.ChunkRowEstimates;
import io.dpone.backfill.core.source.HeapExtentRefusedException;
import io.dpone.backfill.core.source.SourceCatalog;
import io.dpone.backfill.core.source.SourceCoverage;
import io.dpone.backfill.core.publish.ArtifactOwnershipException;
import io.dpone.backfill.core.publish.ColumnShape;
import io.dpone.backfill.core.publish.LiveTargetBaseline;
import io.dpone.backfill.core.publish.LiveTargetChangedException;
import io.dpone.backfill.core.publish.ShadowPublisher;
import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.core.publish.TableShapeDiff;
import io.dpone.backfill.core.publish.ValidationResult;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Hand-written fakes of the source and target ports for engine unit tests: a live table with a shape and a
 * fingerprint that a test may change, a shadow whose row count lanes raise, and a publication that writes its
 * receipt into the {@link InMemoryLedger} after the same live-target checks the real swap makes.
 */
public final class FakeTarget {
    static final TableShape SHAPE = new TableShape(List.of(new ColumnShape("id", "bigint", false), new ColumnShape("v", "text", true)),
            List.of("constraint t_pkey: PRIMARY KEY (id)"));

    final InMemoryLedger ledger;
    TableShape sourceShape = new TableShape(SHAPE.columns());
    TableShape liveShape = SHAPE;
    TableFingerprint liveContent = new TableFingerprint(0, "0");
    /** Taken from the live table when the shadow is prepared, as CREATE TABLE ... LIKE does; null before. */
    TableShape shadowShape;
    public long shadowRows;
    long nullKeys;
    long duplicateKeys;
    /** Set to make the deferred index build fail as a broken server would, whatever the rows. */
    RuntimeException indexBuildFailure;
    SourceCoverage coverage = SourceCoverage.notNullInCatalog("id");
    AnchorCheck anchor = AnchorCheck.ok();
    /** What heapExtent answers for physical chunks; a non-null refusal makes it refuse with that reason. */
    HeapExtent heap = new HeapExtent(100, "16384/16384");
    String heapRefusal;
    /** What readCost answers (null: it fails as a broken catalog query would), and the plan it was last asked about. */
    io.dpone.backfill.core.source.SourceReadCost readCost = io.dpone.backfill.core.source.SourceReadCost.unknown("fake source");
    ChunkPlan pricedPlan;
    String foreignShadowOwner;
    final List<String> calls = new ArrayList<>();

    public FakeTarget(InMemoryLedger ledger) {
        this.ledger = ledger;
    }

    public SourceCatalog source() {
        return new SourceCatalog() {
            @Override
            public String captureAnchor() {
                calls.add("captureAnchor");
                return "1000";
            }

            @Override
            public AnchorCheck checkAnchor(String anchorXmin) {
                return anchor;
            }

            @Override
            public TableShape shape(String schema, String table) {
                return sourceShape;
            }

            @Override
            public SourceCoverage uncoveredRows(String schema, String table, String chunkColumn) {
                return coverage;
            }

            @Override
            public HeapExtent heapExtent(String schema, String table) {
                calls.add("heapExtent");
                if (heapRefusal != null) {
                    throw new HeapExtentRefusedException(heapRefusal);
                }
                return heap;
            }

            @Override
            public ChunkRowEstimates estimateChunkRows(String schema, String table, ChunkPlan plan) {
                return ChunkRowEstimates.none("fake source: no statistics");
            }

            @Override
            public io.dpone.backfill.core.source.SourceReadCost readCost(String schema, String table, ChunkPlan plan) {
                pricedPlan = plan;
                if (readCost == null) {
                    throw new IllegalStateException("the source's statistics could not be read");
                }
                return readCost;
            }
        };
    }

    public ShadowPublisher publisher() {
        return new ShadowPublisher() {
            @Override
            public TableShape shape(String schema, String table) {
                return table.endsWith("_shadow") ? (shadowShape != null ? shadowShape : new TableShape(List.of()))
                        : new TableShape(liveShape.columns());
            }

            @Override
            public TableShape liveShape(String schema, String table) {
                return liveShape;
            }

            @Override
            public TableFingerprint fingerprint(String schema, String table) {
                return table.endsWith("_shadow") ? new TableFingerprint(shadowRows, "shadow-" + shadowRows) : liveContent;
            }

            @Override
            public void prepareShadow(String runKey, ArtifactNames names, String liveTable) {
                calls.add("prepareShadow");
                if (foreignShadowOwner != null) {
                    throw new ArtifactOwnershipException("shadow " + names.shadowTable() + " is owned by " + foreignShadowOwner);
                }
                if (shadowShape == null) {
                    shadowShape = new TableShape(liveShape.columns());
                }
            }

            @Override
            public ValidationResult validate(String schema, String table, List<String> uniqueKey, long expectedRows) {
                calls.add("validate");
                return new ValidationResult(expectedRows, shadowRows, nullKeys, duplicateKeys);
            }

            @Override
            public void buildDeferredIndexes(String runKey, ArtifactNames names, String liveTable,
                                             java.util.Set<String> validatedAtSwap) {
                calls.add(validatedAtSwap.isEmpty() ? "buildDeferredIndexes" : "buildDeferredIndexes deferring " + validatedAtSwap);
                if (indexBuildFailure != null) {
                    throw indexBuildFailure;
                }
                // As the live table's primary key does on a real shadow: it refuses duplicate and NULL keys.
                if (duplicateKeys > 0 || nullKeys > 0) {
                    throw new IllegalStateException("could not create unique index: key is duplicated or NULL");
                }
            }

            @Override
            public PublicationReceipt publish(CampaignLease lease, ArtifactNames names, String liveTable, long rows,
                                              LiveTargetBaseline baseline, TableFingerprint published) {
                calls.add("publish");
                var existing = ledger.connect().publicationReceipt(lease.runKey());
                if (existing.isPresent()) {
                    return existing.get();
                }
                if (!ledger.holds(lease)) {
                    throw new LeaseLostException("campaign lease lost");
                }
                String change = TableShapeDiff.describe("live target", baseline.shape(), liveShape);
                if (change != null) {
                    throw LiveTargetChangedException.shapeChanged(change);
                }
                if (!liveContent.equals(baseline.content())) {
                    throw LiveTargetChangedException.written("live target was written after preparation ("
                            + liveContent.changeSince(baseline.content()) + ")");
                }
                PublicationReceipt receipt = new PublicationReceipt(lease.runKey(), UUID.randomUUID().toString(),
                        names.schema(), liveTable, names.backupTable(), names.shadowTable(), rows, Instant.now());
                ledger.writePublication(receipt);
                return receipt;
            }

            /** Every ready member's receipt at once, as the real group swap writes them in one transaction. */
            @Override
            public PublicationReceipt publishGroup(CampaignLease lease, io.dpone.backfill.core.campaign.PublicationGroup group) {
                calls.add("publishGroup");
                var existing = ledger.connect().publicationReceipt(lease.runKey());
                if (existing.isPresent()) {
                    return existing.get();
                }
                if (!ledger.holds(lease)) {
                    throw new LeaseLostException("campaign lease lost");
                }
                var members = ledger.connect().groupMembers(group.name());
                var standing = io.dpone.backfill.core.ledger.GroupStanding.of(group, members);
                if (!standing.complete()) {
                    throw new io.dpone.backfill.core.publish.GroupHeldException(null, standing.describe(), null);
                }
                PublicationReceipt own = null;
                for (var m : members) {
                    if (m.runKey().equals(lease.runKey()) && !liveContent.equals(LiveTargetBaseline.parse(m.readiness().liveBaseline()).content())) {
                        throw LiveTargetChangedException.written("live target was written after preparation");
                    }
                }
                for (var m : members) {
                    PublicationReceipt receipt = new PublicationReceipt(m.runKey(), UUID.randomUUID().toString(),
                            m.schema(), m.liveTable(), m.readiness().backupTable(), m.readiness().shadowTable(),
                            m.readiness().rows(), Instant.now());
                    ledger.writePublication(receipt);
                    if (m.runKey().equals(lease.runKey())) {
                        own = receipt;
                    }
                }
                return own;
            }

            @Override
            public RollbackReceipt rollback(CampaignLease lease, ArtifactNames names, String liveTable, String reason,
                                            boolean acceptWrites) {
                throw new UnsupportedOperationException("rollback is not an engine step");
            }
        };
    }
}
