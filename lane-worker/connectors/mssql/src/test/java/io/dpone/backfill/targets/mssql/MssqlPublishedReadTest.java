package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.source.TypeFamily;
import java.util.List;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 24, why 3: {@code verify} read every timestamptz column as OffsetDateTime, which mssql-jdbc refuses for a
 * datetime2 column (SQLServerResultSet.getObject(int, OffsetDateTime.class) asks JDBCType.DATETIMEOFFSET, and
 * DataTypes.GetterConversion lets DATETIME2 convert to DATE, TIME, TIMESTAMP and CHARACTER only). The published
 * column's type now picks the getter; the result set here answers as that driver does for one datetime2 column.
 */
class MssqlPublishedReadTest {
    private static final OffsetDateTime DECODED = OffsetDateTime.of(2024, 3, 31, 0, 30, 0, 123_456_000, ZoneOffset.UTC);

    @Test
    void aTimestamptzPublishedAsDatetime2IsReadAsItsUtcWallTimeAndDigestsLikeTheSource() throws Exception {
        ResultSet rs = datetime2Column(DECODED.toLocalDateTime());

        MssqlPublishedRead[] reads = MssqlPublishedDigests.reads(rs.getMetaData(), new TypeFamily[]{TypeFamily.TIMESTAMP_TZ});
        Object read = reads[0].read(rs, 1);

        assertThat(reads[0]).isEqualTo(MssqlPublishedRead.UTC_TIMESTAMP_AS_TIMESTAMPTZ);
        assertThat(read).isEqualTo(DECODED);
        assertThat(digest(read)).isEqualTo(digest(DECODED));
    }

    @Test
    void aTimestamptzPublishedAsDatetimeoffsetKeepsTheOffsetRead() {
        assertThat(MssqlPublishedRead.of(TypeFamily.TIMESTAMP_TZ, "datetimeoffset")).isEqualTo(MssqlPublishedRead.TIMESTAMPTZ);
        assertThat(MssqlPublishedRead.of(TypeFamily.TIMESTAMP, "datetime2")).isEqualTo(MssqlPublishedRead.TIMESTAMP);
    }

    @Test
    void aNullDatetime2ReadsAsNull() throws Exception {
        assertThat(MssqlPublishedRead.UTC_TIMESTAMP_AS_TIMESTAMPTZ.read(datetime2Column(null), 1)).isNull();
    }

    private static ChunkDigest digest(Object value) {
        ContentDigester digester = new ContentDigester(1, new int[]{0});
        digester.value(value);
        digester.endRow();
        return digester.digest();
    }

    /** One datetime2 column holding {@code stored}, with the driver's getter conversions for it. */
    private static ResultSet datetime2Column(LocalDateTime stored) {
        ResultSetMetaData meta = (ResultSetMetaData) Proxy.newProxyInstance(ResultSetMetaData.class.getClassLoader(),
                new Class<?>[]{ResultSetMetaData.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getColumnTypeName" -> "datetime2";
                    case "getColumnCount" -> 1;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return (ResultSet) Proxy.newProxyInstance(ResultSet.class.getClassLoader(), new Class<?>[]{ResultSet.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getMetaData" -> meta;
                    case "wasNull" -> stored == null;
                    case "getObject" -> {
                        if (args[1] == OffsetDateTime.class) {
                            // The driver's message for a getter its conversion table refuses (R_unsupportedConversionFromTo).
                            throw new SQLException("The conversion from datetime2 to DATETIMEOFFSET is unsupported.");
                        }
                        if (args[1] == LocalDateTime.class) {
                            yield stored;
                        }
                        throw new UnsupportedOperationException("getObject as " + args[1]);
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** Issue 35: the read-back gate's parts on SQL Server; each row's key hash puts it in exactly one part. */
    @Test
    void aPartReadsTheRowsWhoseKeyHashesToItAndTheWholeTableReadsEveryRow() {
        assertThat(MssqlPublishedDigests.partFilter(List.of("id"), io.dpone.backfill.core.verify.TablePart.WHOLE)).isEmpty();
        String filter = MssqlPublishedDigests.partFilter(List.of("tenant]x", "id"),
                new io.dpone.backfill.core.verify.TablePart(2, 4, 0, -1));
        assertThat(filter).isEqualTo(" WHERE ISNULL(ABS(CHECKSUM([tenant]]x], [id]) % 4), 0) = 2");
        assertThat(TsqlStatementRules.problems("SELECT [a] FROM [dbo].[t]" + filter)).isEmpty();
    }

    @Test
    void aTableIsSplitByTheCatalogsRowCountIntoPartsOfAtLeastTheGivenSize() throws Exception {
        RecordingConnection catalog = new RecordingConnection()
                .answer("FROM sys.partitions", List.of(java.util.Map.of("rows", 250_000L)));
        MssqlPublishedDigests reader = new MssqlPublishedDigests(catalog.connection(), null);
        assertThat(reader.split("dbo", "items", 4)).hasSize(2);
        assertThat(reader.split("dbo", "items", 1)).containsExactly(io.dpone.backfill.core.verify.TablePart.WHOLE);
        assertThat(reader.splittingEvery(50_000).split("dbo", "items", 4)).hasSize(4)
                .allMatch(p -> p.count() == 4);
        assertThat(catalog.sent().get(0).parameter(1)).isEqualTo("[dbo].[items]");
    }
}
