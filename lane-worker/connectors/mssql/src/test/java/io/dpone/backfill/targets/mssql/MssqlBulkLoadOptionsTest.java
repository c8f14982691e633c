package io.dpone.backfill.targets.mssql;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import io.dpone.backfill.targets.mssql.publish.MssqlLoadShape;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/** The bulk copy's options per load shape (ADR 0032), as the driver's SQLServerBulkCopyOptions holds them. */
class MssqlBulkLoadOptionsTest {
    @Test
    void aHeapShadowIsLoadedWithTheTableLockAndEveryOtherShapeWithout() throws SQLException {
        assertThat(MssqlBulkLoad.options(MssqlLoadShape.HEAP_SHADOW).isTableLock()).isTrue();
        assertThat(MssqlBulkLoad.options(MssqlLoadShape.COLUMNSTORE_SHADOW).isTableLock()).isFalse();
        assertThat(MssqlBulkLoad.options(MssqlLoadShape.OTHER).isTableLock()).isFalse();
    }

    @Test
    void everyShapeJoinsTheChunkTransactionKeepsIdentityAndNullsAndHasNoTimeout() throws SQLException {
        for (MssqlLoadShape shape : MssqlLoadShape.values()) {
            SQLServerBulkCopyOptions options = MssqlBulkLoad.options(shape);
            assertThat(options.isUseInternalTransaction()).isFalse();
            assertThat(options.getBatchSize()).isZero();
            assertThat(options.getBulkCopyTimeout()).isZero();
            assertThat(options.isKeepIdentity()).isTrue();
            assertThat(options.isKeepNulls()).isTrue();
        }
    }
}
