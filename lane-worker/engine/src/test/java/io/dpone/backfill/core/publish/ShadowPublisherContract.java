package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The behaviour every {@link ShadowPublisher} adapter must show, on a real engine. An adapter's test extends this
 * class and implements the fixture methods in its engine's SQL; each test here starts from an empty target
 * (a fresh schema or database per test) holding the ledger tables.
 *
 * <p>The live table of the fixture has: {@code id} (64-bit integer, primary key), {@code code} (text, NOT NULL,
 * default {@code 'none'}, unique), {@code note} (nullable text). Rows are written as (id, 'c' + id, NULL).
 */
public abstract class ShadowPublisherContract {
    protected static final String OWNER = "driver-a";
    protected static final long EPOCH = 3;

    protected abstract ShadowPublisher publisher();

    /** The same publisher over the same connection, with {@code faults} fired inside its swap transaction. */
    protected abstract ShadowPublisher publisherWith(FaultPoints faults);

    protected abstract ArtifactNames names();

    protected abstract String liveTable();

    protected abstract String runKey();

    /** Creates the live table described in the class comment, with one row per id. */
    protected abstract void createLiveTable(long... ids);

    /** Appends rows (id, 'c' + id, NULL) to a table, as a lane would. */
    protected abstract void insertRows(String table, long... ids);

    /** The ids in a table, ascending. */
    protected abstract List<Long> ids(String table);

    protected abstract boolean tableExists(String table);

    /** Names of the unique indexes (primary key included) of a table. */
    protected abstract Set<String> uniqueIndexNames(String table);

    /** Creates a one-column table holding one row, stamped as owned by {@code ownerRunKey} (null: not stamped). */
    protected abstract void createArtifactTable(String table, String ownerRunKey);

    /** Creates a table with two nullable integer columns k1, k2 holding the given rows. */
    protected abstract void createKeyTable(String table, Integer[][] rows);

    /** Writes this run key's campaign row holding the lease (owner, epoch) that expires in the given seconds. */
    protected abstract void startCampaign(String owner, long epoch, int expiresInSeconds);

    // ---- prepare ----

    @Test
    void prepareShadowCreatesAnEmptyShadowShapedLikeTheLiveTableWithoutUniqueIndexes() {
        createLiveTable(1, 2, 3);
        publisher().prepareShadow(runKey(), names(), liveTable());

        TableShape shadow = publisher().shape(names().schema(), names().shadowTable());
        assertThat(shadow.exists()).isTrue();
        assertThat(shadow).isEqualTo(publisher().shape(names().schema(), liveTable()));
        assertThat(ids(names().shadowTable())).isEmpty();
        assertThat(uniqueIndexNames(names().shadowTable())).isEmpty();
        assertThat(uniqueIndexNames(liveTable())).hasSize(2);
    }

    @Test
    void shapeOfAMissingTableIsEmpty() {
        assertThat(publisher().shape(names().schema(), "no_such_table").exists()).isFalse();
    }

    @Test
    void prepareShadowIsIdempotentAndKeepsWhatWasLoaded() {
        createLiveTable(1);
        publisher().prepareShadow(runKey(), names(), liveTable());
        insertRows(names().shadowTable(), 7, 8);

        publisher().prepareShadow(runKey(), names(), liveTable());

        assertThat(ids(names().shadowTable())).containsExactly(7L, 8L);
    }

    @Test
    void prepareShadowFailsClosedOnAShadowStampedByAnotherRunKey() {
        createLiveTable(1);
        createArtifactTable(names().shadowTable(), "someone-elses-run");

        assertThatThrownBy(() -> publisher().prepareShadow(runKey(), names(), liveTable()))
                .isInstanceOf(ArtifactOwnershipException.class)
                .hasMessageContaining(names().shadowTable())
                .hasMessageContaining("someone-elses-run");
        assertThat(ids(names().shadowTable())).containsExactly(1L);
        assertThat(publisher().shape(names().schema(), names().shadowTable()).columnNames()).containsExactly("id");
    }

    @Test
    void prepareShadowFailsClosedOnAnUnstampedShadow() {
        createLiveTable(1);
        createArtifactTable(names().shadowTable(), null);

        assertThatThrownBy(() -> publisher().prepareShadow(runKey(), names(), liveTable()))
                .isInstanceOf(ArtifactOwnershipException.class)
                .hasMessageContaining(names().shadowTable());
        assertThat(ids(names().shadowTable())).containsExactly(1L);
    }

    @Test
    void prepareShadowRefusesAMissingLiveTable() {
        assertThatThrownBy(() -> publisher().prepareShadow(runKey(), names(), liveTable()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(liveTable());
        assertThat(tableExists(names().shadowTable())).isFalse();
    }

    // ---- validate ----

    @Test
    void validateCountsRowsNullKeysAndDuplicateKeysExactly() {
        createKeyTable("keyed", new Integer[][]{
                {1, 1}, {1, 1}, {1, 1},   // two surplus rows
                {2, 2}, {2, 2},           // one surplus row
                {3, null}, {3, null},     // NULL keys are counted as NULL, never as duplicates
                {null, null},
                {4, 4}, {1, 2}});

        ValidationResult result = publisher().validate(names().schema(), "keyed", List.of("k1", "k2"), 10);

        assertThat(result).isEqualTo(new ValidationResult(10, 10, 3, 3));
        assertThat(result.passed()).isFalse();
        assertThat(publisher().validate(names().schema(), "keyed", List.of("k1", "k2"), 11).actualRows()).isEqualTo(10);
    }

    @Test
    void validatePassesACleanTableAndCountsSingleColumnKeys() {
        createKeyTable("clean", new Integer[][]{{1, 1}, {2, 1}, {3, 1}});

        assertThat(publisher().validate(names().schema(), "clean", List.of("k1"), 3).passed()).isTrue();
        assertThat(publisher().validate(names().schema(), "clean", List.of("k2"), 3))
                .isEqualTo(new ValidationResult(3, 3, 0, 2));
    }

    // ---- deferred indexes ----

    @Test
    void buildDeferredIndexesRecreatesKeysAndUniqueIndexesAndIsIdempotent() {
        createLiveTable(1);
        publisher().prepareShadow(runKey(), names(), liveTable());
        insertRows(names().shadowTable(), 1, 2, 3);

        publisher().buildDeferredIndexes(runKey(), names(), liveTable());
        Set<String> built = uniqueIndexNames(names().shadowTable());
        publisher().buildDeferredIndexes(runKey(), names(), liveTable());

        assertThat(built).hasSize(2);
        assertThat(uniqueIndexNames(names().shadowTable())).isEqualTo(built);
        assertThatThrownBy(() -> insertRows(names().shadowTable(), 2)).as("the rebuilt primary key is enforced")
                .isInstanceOf(RuntimeException.class);
    }

    /** The engine builds the indexes before validation and, when a build fails, asks validation why (ADR 0022). */
    @Test
    void aDuplicateKeyFailsThePrimaryKeysBuildAndLeavesTheShadowToBeValidated() {
        createLiveTable(1);
        publisher().prepareShadow(runKey(), names(), liveTable());
        insertRows(names().shadowTable(), 1, 2, 2);

        assertThatThrownBy(() -> publisher().buildDeferredIndexes(runKey(), names(), liveTable()))
                .isInstanceOf(RuntimeException.class);

        assertThat(publisher().validate(names().schema(), names().shadowTable(), List.of("id"), 3))
                .isEqualTo(new ValidationResult(3, 3, 0, 1));
    }

    @Test
    void buildDeferredIndexesRefusesAForeignShadow() {
        createLiveTable(1);
        createArtifactTable(names().shadowTable(), "someone-elses-run");

        assertThatThrownBy(() -> publisher().buildDeferredIndexes(runKey(), names(), liveTable()))
                .isInstanceOf(ArtifactOwnershipException.class);
        assertThat(uniqueIndexNames(names().shadowTable())).isEmpty();
    }

    // ---- publish ----

    @Test
    void publishSwapsShadowAndLiveInOneStepAndKeepsTheOldTableAsBackup() {
        Set<String> originalIndexes = loadedShadow();
        startCampaign(OWNER, EPOCH, 60);

        PublicationReceipt receipt = publisher().publish(lease(), names(), liveTable(), 3, baseline(), shadowPrint());

        assertThat(ids(liveTable())).containsExactly(10L, 11L, 12L);
        assertThat(ids(names().backupTable())).containsExactly(1L, 2L);
        assertThat(tableExists(names().shadowTable())).isFalse();
        assertThat(uniqueIndexNames(liveTable())).isEqualTo(originalIndexes);
        assertThat(receipt.runKey()).isEqualTo(runKey());
        assertThat(receipt.receiptId()).isNotBlank();
        assertThat(receipt.rows()).isEqualTo(3);
        assertThat(receipt.schema()).isEqualTo(names().schema());
        assertThat(receipt.liveTable()).isEqualTo(liveTable());
        assertThat(receipt.backupTable()).isEqualTo(names().backupTable());
        assertThat(receipt.shadowTable()).isEqualTo(names().shadowTable());
        assertThat(receipt.publishedAt()).isNotNull();
    }

    @Test
    void inPublishFiresInsideTheSwapTransactionSoACrashThereChangesNothing() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        TargetState before = state();
        List<FaultPoint> reached = new java.util.ArrayList<>();
        FaultPoints crash = new FaultPoints() {
            @Override
            public void reached(FaultPoint point, int chunkId) {
                reached.add(point);
                throw new IllegalStateException("crash at " + point.wireName());
            }

            @Override
            public boolean armed(FaultPoint point) {
                return true;
            }
        };

        assertThatThrownBy(() -> publisherWith(crash).publish(lease(), names(), liveTable(), 3, baseline(), shadowPrint()))
                .hasStackTraceContaining("crash at in-publish");

        assertThat(reached).containsExactly(FaultPoint.IN_PUBLISH);
        assertThat(state()).as("the swap and its receipt rolled back: the old table is live").isEqualTo(before);
        assertThat(publisher().publish(lease(), names(), liveTable(), 3, baseline(), shadowPrint()).rows()).isEqualTo(3);
    }

    @Test
    void publishReplayReturnsTheSameReceiptAndChangesNothing() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        PublicationReceipt first = publisher().publish(lease(), names(), liveTable(), 3, baseline(), shadowPrint());
        TargetState after = state();

        PublicationReceipt replay = publisher().publish(lease(), names(), liveTable(), 3, baseline(), shadowPrint());

        assertThat(replay).isEqualTo(first);
        assertThat(state()).isEqualTo(after);
    }

    @Test
    void publishWithAStaleLeaseEpochThrowsAndChangesNothing() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        TargetState before = state();

        assertThatThrownBy(() -> publisher().publish(new CampaignLease(runKey(), OWNER, EPOCH - 1), names(), liveTable(), 3, baseline(), shadowPrint()))
                .isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("campaign lease lost");
        assertThatThrownBy(() -> publisher().publish(new CampaignLease(runKey(), "driver-b", EPOCH), names(), liveTable(), 3, baseline(), shadowPrint()))
                .isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("campaign lease lost");
        assertThat(state()).isEqualTo(before);
    }

    @Test
    void publishWithAnExpiredLeaseThrowsAndChangesNothing() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, -1);
        TargetState before = state();

        assertThatThrownBy(() -> publisher().publish(lease(), names(), liveTable(), 3, baseline(), shadowPrint()))
                .isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("campaign lease lost");
        assertThat(state()).isEqualTo(before);
    }

    @Test
    void publishFailsClosedWhenTheBackupNameIsTaken() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        createArtifactTable(names().backupTable(), null);
        TargetState before = state();

        assertThatThrownBy(() -> publisher().publish(lease(), names(), liveTable(), 3, baseline(), shadowPrint()))
                .isInstanceOf(ArtifactOwnershipException.class)
                .hasMessageContaining(names().backupTable());
        assertThat(state()).isEqualTo(before);
    }

    @Test
    void publishFailsClosedWhenTheShadowBelongsToAnotherRunKey() {
        createLiveTable(1, 2);
        createArtifactTable(names().shadowTable(), "someone-elses-run");
        startCampaign(OWNER, EPOCH, 60);
        TargetState before = state();

        assertThatThrownBy(() -> publisher().publish(lease(), names(), liveTable(), 1, baseline(), shadowPrint()))
                .isInstanceOf(ArtifactOwnershipException.class)
                .hasMessageContaining(names().shadowTable());
        assertThat(state()).isEqualTo(before);
    }

    // ---- rollback ----

    @Test
    void rollbackSwapsBackWithItsReceiptAndAReplayIsANoOp() {
        Set<String> originalIndexes = loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        publisher().publish(lease(), names(), liveTable(), 3, baseline(), shadowPrint());

        RollbackReceipt receipt = publisher().rollback(lease(), names(), liveTable(), "wrong source filter", false);

        assertThat(ids(liveTable())).containsExactly(1L, 2L);
        assertThat(ids(names().shadowTable())).containsExactly(10L, 11L, 12L);
        assertThat(tableExists(names().backupTable())).isFalse();
        assertThat(uniqueIndexNames(liveTable())).isEqualTo(originalIndexes);
        assertThat(receipt.runKey()).isEqualTo(runKey());
        assertThat(receipt.reason()).isEqualTo("wrong source filter");
        assertThat(receipt.receiptId()).isNotBlank();
        TargetState after = state();

        assertThat(publisher().rollback(lease(), names(), liveTable(), "again", false)).isEqualTo(receipt);
        assertThat(state()).isEqualTo(after);
    }

    @Test
    void rollbackWithoutAPublicationIsRefusedAndChangesNothing() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        TargetState before = state();

        assertThatThrownBy(() -> publisher().rollback(lease(), names(), liveTable(), "oops", false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("publication");
        assertThat(state()).isEqualTo(before);
    }

    @Test
    void rollbackWithALostLeaseThrowsAndChangesNothing() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        publisher().publish(lease(), names(), liveTable(), 3, baseline(), shadowPrint());
        TargetState before = state();

        assertThatThrownBy(() -> publisher().rollback(new CampaignLease(runKey(), OWNER, EPOCH + 1), names(), liveTable(), "x", false))
                .isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("campaign lease lost");
        assertThat(state()).isEqualTo(before);
    }

    // ---- nothing hidden by publication or rollback ----

    @Test
    void publishRefusesWhenTheLiveTableWasWrittenAfterPreparation() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        LiveTargetBaseline atPreparation = baseline();
        insertRows(liveTable(), 99);
        TargetState before = state();

        assertThatThrownBy(() -> publisher().publish(lease(), names(), liveTable(), 3, atPreparation, shadowPrint()))
                .isInstanceOf(LiveTargetChangedException.class)
                .hasMessageContaining("written after preparation")
                .hasMessageContaining("2 row(s) then, 3 now");
        assertThat(state()).isEqualTo(before);
        assertThat(ids(liveTable())).containsExactly(1L, 2L, 99L);
    }

    @Test
    void publishRefusesWhenALiveRowWasUpdatedAfterPreparationEvenWithTheSameCount() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        LiveTargetBaseline atPreparation = baseline();
        updateNote(liveTable(), 1, "edited by the application");

        assertThatThrownBy(() -> publisher().publish(lease(), names(), liveTable(), 3, atPreparation, shadowPrint()))
                .isInstanceOf(LiveTargetChangedException.class)
                .hasMessageContaining("contents differ");
        assertThat(tableExists(names().shadowTable())).isTrue();
    }

    @Test
    void publishRefusesWhenAColumnWasAddedToTheLiveTableAfterPreparation() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        LiveTargetBaseline atPreparation = baseline();
        addNullableColumn(liveTable(), "audit_note");
        TargetState before = state();

        assertThatThrownBy(() -> publisher().publish(lease(), names(), liveTable(), 3, atPreparation, shadowPrint()))
                .isInstanceOf(LiveTargetChangedException.class)
                .hasMessageContaining("column audit_note was added");
        assertThat(state()).isEqualTo(before);
    }

    @Test
    void rollbackRefusesWhenThePublishedTableWasWrittenAfterPublicationAndChangesNothing() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        publisher().publish(lease(), names(), liveTable(), 3, baseline(), shadowPrint());
        insertRows(liveTable(), 13);
        TargetState before = state();

        assertThatThrownBy(() -> publisher().rollback(lease(), names(), liveTable(), "bad data", false))
                .isInstanceOf(PublishedTableWrittenException.class)
                .hasMessageContaining("3 row(s) then, 4 now")
                .hasMessageContaining(names().shadowTable())
                .satisfies(e -> assertThat(((PublishedTableWrittenException) e).changedRows()).isEqualTo(1));
        assertThat(state()).isEqualTo(before);
        assertThat(ids(liveTable())).containsExactly(10L, 11L, 12L, 13L);
    }

    @Test
    void rollbackWithAcceptedWritesSwapsBackAndRecordsThemInTheReceipt() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        publisher().publish(lease(), names(), liveTable(), 3, baseline(), shadowPrint());
        insertRows(liveTable(), 13);

        RollbackReceipt receipt = publisher().rollback(lease(), names(), liveTable(), "bad data", true);

        assertThat(receipt.acceptedWrites()).contains("3 row(s) then, 4 now");
        assertThat(ids(liveTable())).containsExactly(1L, 2L);
        assertThat(ids(names().shadowTable())).containsExactly(10L, 11L, 12L, 13L);
    }

    @Test
    void rollbackOfAnUnwrittenPublicationRecordsNoAcceptedWrites() {
        loadedShadow();
        startCampaign(OWNER, EPOCH, 60);
        publisher().publish(lease(), names(), liveTable(), 3, baseline(), shadowPrint());

        assertThat(publisher().rollback(lease(), names(), liveTable(), "bad data", false).acceptedWrites()).isNull();
    }

    @Test
    void fingerprintsDifferForTablesWithDifferentRowsAndMatchForTheSameRows() {
        createLiveTable(1, 2);
        TableFingerprint first = publisher().fingerprint(names().schema(), liveTable());

        assertThat(publisher().fingerprint(names().schema(), liveTable())).isEqualTo(first);
        assertThat(first.rows()).isEqualTo(2);
        insertRows(liveTable(), 3);
        assertThat(publisher().fingerprint(names().schema(), liveTable())).isNotEqualTo(first);
    }

    // ---- helpers ----

    /** Adds a nullable text column to a table, as someone altering the live target mid-campaign would. */
    protected abstract void addNullableColumn(String table, String column);

    /** Sets {@code note} of one row, as an application writing the live table would. */
    protected abstract void updateNote(String table, long id, String note);

    /** The live table as it is now: what preparation records. */
    protected LiveTargetBaseline baseline() {
        if (!tableExists(liveTable())) {
            return new LiveTargetBaseline(new TableShape(List.of()), "0:0");
        }
        return new LiveTargetBaseline(publisher().liveShape(names().schema(), liveTable()),
                publisher().fingerprint(names().schema(), liveTable()).encoded());
    }

    /** The shadow's fingerprint as validation takes it (a replay, after the shadow was renamed, does not use it). */
    protected TableFingerprint shadowPrint() {
        return tableExists(names().shadowTable()) ? publisher().fingerprint(names().schema(), names().shadowTable())
                : new TableFingerprint(0, "0");
    }

    protected CampaignLease lease() {
        return new CampaignLease(runKey(), OWNER, EPOCH);
    }

    /**
     * Live rows 1, 2; a prepared shadow loaded with 10, 11, 12 and its deferred indexes built. Returns the live
     * table's unique index names.
     */
    protected Set<String> loadedShadow() {
        createLiveTable(1, 2);
        Set<String> original = uniqueIndexNames(liveTable());
        publisher().prepareShadow(runKey(), names(), liveTable());
        insertRows(names().shadowTable(), 10, 11, 12);
        publisher().buildDeferredIndexes(runKey(), names(), liveTable());
        return original;
    }

    /** What a failed or replayed operation must leave exactly as it was. */
    protected record TargetState(List<Long> live, List<Long> shadow, List<Long> backup, Set<String> liveIndexes,
                                 Set<String> shadowIndexes, TableShape liveShape) {
    }

    protected TargetState state() {
        String shadow = names().shadowTable();
        String backup = names().backupTable();
        return new TargetState(ids(liveTable()), tableExists(shadow) ? ids(shadow) : null,
                tableExists(backup) ? ids(backup) : null, uniqueIndexNames(liveTable()),
                tableExists(shadow) ? uniqueIndexNames(shadow) : null, publisher().shape(names().schema(), liveTable()));
    }
}
