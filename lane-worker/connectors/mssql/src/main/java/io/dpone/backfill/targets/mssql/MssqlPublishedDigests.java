package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.digest.DigestTable;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.UuidKeys;
import io.dpone.backfill.core.verify.PublishedTableDigests;
import io.dpone.backfill.core.verify.TablePart;
import io.dpone.backfill.source.SourceColumn;
import io.dpone.backfill.source.SourceTable;
import io.dpone.backfill.source.TypeFamily;

import java.math.BigInteger;
import io.dpone.backfill.core.campaign.LoadColumns;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The published SQL Server table's digests for {@code verify} (ADR 0018): one forward-only {@code SELECT} of the
 * loaded columns, each value read back as the Java value the lane's decoder produced for the source column
 * (the source's description of its columns, the same one the lanes decode with), so the same canonical encoding applies; which
 * getter reads it depends on the published column's type too ({@link MssqlPublishedRead}). Rows are
 * placed in their chunk by their chunk key in Java.
 * <p>
 * The read-back gate (ADR 0036) reads a large table in parts, one session each: part i of n holds the rows whose key
 * hashes to i ({@code CHECKSUM} of the key columns, modulo n, a NULL hash in part 0), so every row is in exactly one
 * part whatever the key's type and collation. SQL Server exposes no documented physical row position to range on
 * (PostgreSQL's parts are heap block ranges), so each part's session scans the table and keeps its share: the
 * server reads more pages, and the decoding and digesting, which bound one session's read, run on every lane's
 * session at once.
 */
public final class MssqlPublishedDigests implements PublishedTableDigests {
    /** Tables with fewer rows than this per part are read whole: a part's scan costs more than its share saves. */
    static final long ROWS_PER_PART = 100_000;
    private static final String ROWS = "SELECT SUM(p.rows) FROM sys.partitions AS p"
            + " WHERE p.object_id = OBJECT_ID(?, N'U') AND p.index_id IN (0, 1)";

    private final Connection target;
    private final SourceTable source;
    private final LoadColumns loaded;
    private long rowsPerPart = ROWS_PER_PART;

    public MssqlPublishedDigests(Connection target, SourceTable source) {
        this(target, source, null);
    }

    /** @param loaded each read column's source column (issue 27); null: named the same */
    public MssqlPublishedDigests(Connection target, SourceTable source, LoadColumns loaded) {
        this.target = target;
        this.source = source;
        this.loaded = loaded;
    }

    /** Splits tables into parts of at least {@code rows} rows (tests split small tables). */
    public MssqlPublishedDigests splittingEvery(long rows) {
        if (rows < 1) {
            throw new IllegalArgumentException("a part holds at least one row, not " + rows);
        }
        this.rowsPerPart = rows;
        return this;
    }

    /** As many parts as {@code wanted}, each of about {@link #ROWS_PER_PART} rows or more, by the catalog's row count. */
    @Override
    public List<TablePart> split(String schema, String table, int wanted) throws Exception {
        long rows;
        try (PreparedStatement ps = target.prepareStatement(ROWS)) {
            ps.setString(1, MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table));
            try (ResultSet rs = ps.executeQuery()) {
                rows = rs.next() ? rs.getLong(1) : 0;
            }
        }
        int parts = (int) Math.min(wanted, rows / rowsPerPart);
        if (parts < 2) {
            return List.of(TablePart.WHOLE);
        }
        List<TablePart> split = new ArrayList<>(parts);
        for (int i = 0; i < parts; i++) {
            split.add(new TablePart(i, parts, 0, -1));
        }
        return split;
    }

    @Override
    public DigestTable read(String schema, String table, List<String> columns, List<String> keyColumns, ChunkPlan plan,
                            RowEncoding encoding, TablePart part) throws Exception {
        return read(schema, table, columns, keyColumns, plan, null, -1, part);
    }

    @Override
    public DigestTable read(String schema, String table, List<String> columns, List<String> keyColumns, ChunkPlan plan,
                            RowEncoding encoding, ContentDigester.RowObserver observer, int observedSlot)
            throws Exception {
        return read(schema, table, columns, keyColumns, plan, observer, observedSlot, TablePart.WHOLE);
    }

    private DigestTable read(String schema, String table, List<String> columns, List<String> keyColumns, ChunkPlan plan,
                             ContentDigester.RowObserver observer, int observedSlot, TablePart part) throws Exception {
        List<String> sourceColumns = LoadColumns.sourcesOf(loaded, columns);
        TypeFamily[] types = source.columns(sourceColumns).stream().map(SourceColumn::family).toArray(TypeFamily[]::new);
        boolean keyed = plan.kind().keyed();
        // The plan's column is a source column: its place among the loaded columns is the same on both sides.
        int keyColumn = keyed ? sourceColumns.indexOf(plan.column()) : -1;
        DigestTable digests = new DigestTable(keyed ? plan.size() : 1);
        ContentDigester digester = new ContentDigester(columns.size(), ContentDigester.positions(columns, keyColumns))
                .observe(observer, observedSlot);
        String sql = "SELECT " + columns.stream().map(MssqlIdentifiers::quote).collect(Collectors.joining(", "))
                + " FROM " + MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table) + partFilter(keyColumns, part);
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

    /**
     * The part's rows: {@code CHECKSUM} over the key columns modulo the part count (sql-docs checksum-transact-sql.md:
     * "computes a hash value ... over its argument list"; an int, possibly negative, hence ABS after the modulo, which
     * keeps it within int). Nothing for the whole table.
     */
    static String partFilter(List<String> keyColumns, TablePart part) {
        if (part.whole()) {
            return "";
        }
        if (keyColumns.isEmpty()) {
            throw new IllegalArgumentException("a table is split by its key: no key columns given");
        }
        String key = keyColumns.stream().map(MssqlIdentifiers::quote).collect(Collectors.joining(", "));
        return " WHERE ISNULL(ABS(CHECKSUM(" + key + ") % " + part.count() + "), 0) = " + part.index();
    }

    /** Each column's read, from its source type and the published column's SQL Server type. */
    static MssqlPublishedRead[] reads(ResultSetMetaData published, TypeFamily[] types) throws SQLException {
        MssqlPublishedRead[] reads = new MssqlPublishedRead[types.length];
        for (int c = 0; c < types.length; c++) {
            reads[c] = MssqlPublishedRead.of(types[c], published.getColumnTypeName(c + 1));
        }
        return reads;
    }
}
