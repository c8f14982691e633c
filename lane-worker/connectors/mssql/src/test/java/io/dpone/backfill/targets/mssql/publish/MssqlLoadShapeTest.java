package io.dpone.backfill.targets.mssql.publish;

import java.util.List;
import java.util.Map;
import io.dpone.backfill.targets.mssql.RecordingConnection;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 24 / ADR 0032: four lanes bulk-loading one heap shadow without TABLOCK escalate to a table lock and serialize
 * (1222). With TABLOCK a heap without indexes takes bulk update (BU) locks that concurrent bulk loads share; a
 * clustered columnstore must not get TABLOCK ("Using TABLOCK will force an exclusive lock on the table", sql-docs
 * docs/relational-databases/indexes/columnstore-indexes-data-loading-guidance.md); a table that is not a campaign
 * shadow (direct mode) keeps row locks so its other users are not shut out. Its settings: escalation off while a
 * columnstore shadow loads, its delta rowgroups compressed and the live table's escalation before the swap.
 */
class MssqlLoadShapeTest {
    @Test
    void onlyAHeapShadowWithoutIndexesIsLoadedUnderATableLock() {
        assertThat(MssqlLoadShape.of(true, 0, false)).isEqualTo(MssqlLoadShape.HEAP_SHADOW);
        assertThat(MssqlLoadShape.HEAP_SHADOW.tableLock()).isTrue();

        assertThat(MssqlLoadShape.of(true, 1, true)).isEqualTo(MssqlLoadShape.COLUMNSTORE_SHADOW);
        assertThat(MssqlLoadShape.COLUMNSTORE_SHADOW.tableLock()).isFalse();

        assertThat(MssqlLoadShape.of(false, 0, false)).as("a live heap in direct mode").isEqualTo(MssqlLoadShape.OTHER);
        assertThat(MssqlLoadShape.of(true, 2, false)).as("a shadow with b-tree indexes").isEqualTo(MssqlLoadShape.OTHER);
        assertThat(MssqlLoadShape.of(true, 2, true)).as("columnstore plus a b-tree").isEqualTo(MssqlLoadShape.OTHER);
        assertThat(MssqlLoadShape.OTHER.tableLock()).isFalse();
    }

    @Test
    void theShapeIsReadFromTheShadowStampAndTheIndexes() {
        assertThat(MssqlLoadShape.SQL).isEqualTo("SELECT CASE WHEN EXISTS (SELECT 1 FROM sys.extended_properties AS ep"
                + " WHERE ep.class = 1 AND ep.major_id = OBJECT_ID(?, N'U') AND ep.minor_id = 0"
                + " AND ep.name = N'dpone_backfill' AND CONVERT(nvarchar(4000), ep.value) LIKE N'run[_]key=%')"
                + " THEN 1 ELSE 0 END AS shadow,"
                + " (SELECT COUNT(*) FROM sys.indexes AS i WHERE i.object_id = OBJECT_ID(?, N'U') AND i.index_id > 0) AS indexes,"
                + " CASE WHEN EXISTS (SELECT 1 FROM sys.indexes AS i WHERE i.object_id = OBJECT_ID(?, N'U') AND i.type = 5)"
                + " THEN 1 ELSE 0 END AS clustered_columnstore");
        // The stamp a shadow carries matches the pattern; a published table's or a backup's does not.
        assertThat(MssqlShadowStamp.shadow("r1")).startsWith("run_key=");
        assertThat(MssqlShadowStamp.published("r1")).doesNotStartWith("run_key=");
        assertThat(MssqlShadowStamp.backup("r1")).doesNotStartWith("run_key=");
    }

    @Test
    void aColumnstoreShadowEndsWithEveryRowgroupCompressedAndTheLiveTablesEscalation() {
        assertThat(MssqlShadowTuning.compressAllRowGroups("dbo", "orders_shadow", "cci]x"))
                .isEqualTo("ALTER INDEX [cci]]x] ON [dbo].[orders_shadow] REORGANIZE WITH (COMPRESS_ALL_ROW_GROUPS = ON)");
        assertThat(MssqlShadowTuning.lockEscalation("dbo", "orders_shadow", "DISABLE"))
                .isEqualTo("ALTER TABLE [dbo].[orders_shadow] SET (LOCK_ESCALATION = DISABLE)");
        assertThat(MssqlShadowTuning.lockEscalation("dbo", "orders_shadow", "AUTO"))
                .isEqualTo("ALTER TABLE [dbo].[orders_shadow] SET (LOCK_ESCALATION = AUTO)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> MssqlShadowTuning.lockEscalation("dbo", "t", "TABLE; DROP"))
                .isInstanceOf(IllegalStateException.class);
    }

    /** Issue 35: an ALTER that sets what is already set changes nothing on SQL Server, so the swap sends none. */
    @Test
    void theShadowTakesTheLiveEscalationOnlyWhereItDiffers() throws Exception {
        String query = "lock_escalation_desc FROM sys.tables";
        RecordingConnection same = new RecordingConnection()
                .answer(query, "[dbo].[orders]", List.of(Map.of("d", "TABLE")))
                .answer(query, "[dbo].[orders_shadow]", List.of(Map.of("d", "TABLE")));
        MssqlShadowTuning.forPublication(same.connection(), "dbo", "orders", "orders_shadow");
        assertThat(same.sent()).noneMatch(s -> s.sql().startsWith("ALTER TABLE"));

        RecordingConnection differs = new RecordingConnection()
                .answer(query, "[dbo].[orders]", List.of(Map.of("d", "AUTO")))
                .answer(query, "[dbo].[orders_shadow]", List.of(Map.of("d", "TABLE")));
        MssqlShadowTuning.forPublication(differs.connection(), "dbo", "orders", "orders_shadow");
        assertThat(differs.sent()).extracting(RecordingConnection.Sent::sql)
                .contains("ALTER TABLE [dbo].[orders_shadow] SET (LOCK_ESCALATION = AUTO)");

        RecordingConnection loading = new RecordingConnection()
                .answer(query, "[dbo].[orders_shadow]", List.of(Map.of("d", "TABLE")));
        MssqlShadowTuning.forLoading(loading.connection(), "dbo", "orders_shadow");
        assertThat(loading.sent()).extracting(RecordingConnection.Sent::sql)
                .contains("ALTER TABLE [dbo].[orders_shadow] SET (LOCK_ESCALATION = DISABLE)");
    }
}
