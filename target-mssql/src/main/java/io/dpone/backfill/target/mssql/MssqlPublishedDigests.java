package io.dpone.backfill.target.mssql;

import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.digest.DigestTable;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.UuidKeys;
import io.dpone.backfill.core.verify.PublishedTableDigests;
import io.dpone.backfill.source.postgres.binary.PgType;
import io.dpone.backfill.source.postgres.binary.SourceColumn;
import io.dpone.backfill.source.postgres.binary.SourceColumnPlanner;

import java.math.BigInteger;
import io.dpone.backfill.core.campaign.LoadColumns;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The published SQL Server table's digests for {@code verify} (ADR 0018): one forward-only {@code SELECT} of the
 * loaded columns, each value read back as the Java value the lane's decoder produced for the source column
 * (the source's column plan, the same one the lanes decode with), so the same canonical encoding applies; which
 * getter reads it depends on the published column's type too ({@link MssqlPublishedRead}). Rows are
 * placed in their chunk by their chunk key in Java.
 */
public final class MssqlPublishedDigests implements PublishedTableDigests {
    private final Connection target;
    private final Connection source;
    private final String sourceSchema;
    private final String sourceTable;
    private final LoadColumns loaded;

    public MssqlPublishedDigests(Connection target, Connection source, String sourceSchema, String sourceTable) {
        this(target, source, sourceSchema, sourceTable, null);
    }

    /** @param loaded each read column's source column (issue 27); null: named the same */
    public MssqlPublishedDigests(Connection target, Connection source, String sourceSchema, String sourceTable,
                                 LoadColumns loaded) {
        this.target = target;
        this.source = source;
        this.sourceSchema = sourceSchema;
        this.sourceTable = sourceTable;
        this.loaded = loaded;
    }

    @Override
    public DigestTable read(String schema, String table, List<String> columns, List<String> keyColumns, ChunkPlan plan,
                            RowEncoding encoding, ContentDigester.RowObserver observer, int observedSlot)
            throws Exception {
        List<String> sourceColumns = LoadColumns.sourcesOf(loaded, columns);
        List<SourceColumn> plannedColumns = new SourceColumnPlanner(source).plan(sourceSchema, sourceTable, sourceColumns).columns();
        PgType[] types = plannedColumns.stream().map(SourceColumn::arrivingType).toArray(PgType[]::new);
        boolean keyed = plan.kind().keyed();
        // The plan's column is a source column: its place among the loaded columns is the same on both sides.
        int keyColumn = keyed ? sourceColumns.indexOf(plan.column()) : -1;
        DigestTable digests = new DigestTable(keyed ? plan.size() : 1);
        ContentDigester digester = new ContentDigester(columns.size(), ContentDigester.positions(columns, keyColumns))
                .observe(observer, observedSlot);
        String sql = "SELECT " + columns.stream().map(MssqlIdentifiers::quote).collect(Collectors.joining(", "))
                + " FROM " + MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table);
        try (PreparedStatement ps = target.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            ps.setFetchSize(1000);
            try (ResultSet rs = ps.executeQuery()) {
                MssqlPublishedRead[] reads = reads(rs.getMetaData(), types);
                while (rs.next()) {
                    BigInteger key = null;
                    for (int c = 0; c < types.length; c++) {
                        Object value = reads[c].read(rs, c + 1);
                        if (c == keyColumn && value != null) {
                            key = value instanceof UUID u ? UuidKeys.fromBits(u.getMostSignificantBits(), u.getLeastSignificantBits())
                                    : BigInteger.valueOf(((Number) value).longValue());
                        }
                        digester.value(value);
                    }
                    if (keyed && key == null) {
                        throw new IllegalStateException("a published row has a NULL chunk column " + plan.column());
                    }
                    digester.endRow(digests, keyed ? plan.locate(key).id() : 0);
                }
            }
        }
        return digests;
    }

    /** Each column's read, from its source type and the published column's SQL Server type. */
    static MssqlPublishedRead[] reads(ResultSetMetaData published, PgType[] types) throws SQLException {
        MssqlPublishedRead[] reads = new MssqlPublishedRead[types.length];
        for (int c = 0; c < types.length; c++) {
            reads[c] = MssqlPublishedRead.of(types[c], published.getColumnTypeName(c + 1));
        }
        return reads;
    }
}
