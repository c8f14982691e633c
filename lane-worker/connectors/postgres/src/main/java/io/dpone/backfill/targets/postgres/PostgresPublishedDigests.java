package io.dpone.backfill.targets.postgres;

import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.digest.DigestTable;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.verify.PublishedTableDigests;
import io.dpone.backfill.core.verify.TablePart;
import io.dpone.backfill.postgres.PostgresBinaryCopy;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.source.postgres.PostgresHeapState;
import io.dpone.backfill.source.postgres.binary.PgType;
import io.dpone.backfill.source.postgres.binary.CopyOutInputStream;
import io.dpone.backfill.source.postgres.digest.ColumnFamilies;
import io.dpone.backfill.source.postgres.digest.CopyRowDigests;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The published PostgreSQL table's digests for {@code verify} and the read-back gate: one {@code COPY (SELECT <loaded
 * columns> FROM table) TO STDOUT} on the wire the lanes used (binary when they moved binary tuples, else text), each
 * row canonicalised by its own column's type (the target's catalog) and placed in its chunk by its chunk key, in
 * Java, streaming. Given the source table, a column widened on the way in (ADR 0036) is read as the type the lanes
 * digested: an integer from a numeric column as an integer (a fraction stays a numeric, and differs), a real from a
 * double precision column as a real, a {@code character(n)} from a longer one cast back to its source length.
 */
public final class PostgresPublishedDigests implements PublishedTableDigests {
    /** 64 MiB of heap: below that a part costs more in sessions and scans started than it saves. */
    static final long BLOCKS_PER_PART = 8192;

    private long blocksPerPart = BLOCKS_PER_PART;

    private final Connection target;
    private final Connection source;
    private final String sourceSchema;
    private final String sourceTable;
    private final LoadColumns loaded;

    /** Reads every column as its own type: for a table loaded from identical types, or digested on its own terms. */
    public PostgresPublishedDigests(Connection target) {
        this(target, null, null, null, null);
    }

    /** Reads widened columns as their source types (the class comment says how), source columns named the same. */
    public PostgresPublishedDigests(Connection target, Connection source, String sourceSchema, String sourceTable) {
        this(target, source, sourceSchema, sourceTable, null);
    }

    /**
     * The same, each read column's source column found through {@code loaded} (issue 27); null: named the same.
     */
    public PostgresPublishedDigests(Connection target, Connection source, String sourceSchema, String sourceTable,
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
        boolean keyed = plan.kind().keyed();
        return stream(schema, table, columns, keyColumns, keyed ? plan : null, encoding, observer, observedSlot,
                TablePart.WHOLE);
    }

    /**
     * Block ranges of about equal size, the last one open: a TID range scan reads only its own blocks (PostgreSQL 14
     * and later; an earlier server, a table of fewer than {@value #BLOCKS_PER_PART} blocks a part (by default), or a relation
     * that is not a plain table is read whole).
     */
    /** Splits tables into parts of at least {@code blocks} blocks (tests split small tables). */
    public PostgresPublishedDigests splittingEvery(long blocks) {
        if (blocks < 1) {
            throw new IllegalArgumentException("a part holds at least one block, not " + blocks);
        }
        this.blocksPerPart = blocks;
        return this;
    }

    @Override
    public List<TablePart> split(String schema, String table, int wanted) throws Exception {
        PostgresHeapState heap = PostgresHeapState.read(target, schema, table).orElseThrow(() ->
                new IllegalStateException(schema + "." + table + " does not exist"));
        int parts = (int) Math.min(wanted, heap.blocks() / blocksPerPart);
        if (parts < 2 || heap.serverVersion() < PostgresHeapState.TID_RANGE_SCAN_VERSION || heap.relkind() != 'r') {
            return List.of(TablePart.WHOLE);
        }
        List<TablePart> split = new ArrayList<>(parts);
        for (int i = 0; i < parts; i++) {
            split.add(new TablePart(i, parts, heap.blocks() * i / parts, i == parts - 1 ? -1 : heap.blocks() * (i + 1) / parts));
        }
        return split;
    }

    @Override
    public DigestTable read(String schema, String table, List<String> columns, List<String> keyColumns, ChunkPlan plan,
                            RowEncoding encoding, TablePart part) throws Exception {
        return stream(schema, table, columns, keyColumns, plan.kind().keyed() ? plan : null, encoding, null, -1, part);
    }

    /**
     * The digest of every row of the table, {@code columns} in that order, read on {@code encoding}'s wire: what a
     * rollback compares with the receipts' sum that publication recorded (ADR 0022). Runs inside the caller's
     * transaction when it has one.
     */
    public ChunkDigest wholeTable(String schema, String table, List<String> columns, RowEncoding encoding)
            throws Exception {
        // Only the full-row hash is compared (it covers every column): any column may stand in as the key.
        return stream(schema, table, columns, columns.subList(0, 1), null, encoding, null, -1, TablePart.WHOLE).total();
    }

    private DigestTable stream(String schema, String table, List<String> columns, List<String> keyColumns,
                               ChunkPlan keyedPlan, RowEncoding encoding, ContentDigester.RowObserver observer,
                               int observedSlot, TablePart part) throws Exception {
        DigestTable digests = new DigestTable(keyedPlan != null ? keyedPlan.size() : 1);
        boolean binary = encoding == RowEncoding.POSTGRES_COPY_BINARY;
        PgType[] types = ColumnFamilies.of(target, schema, table, columns);
        List<String> select = columns.stream().map(PostgresIdentifiers::quote).collect(Collectors.toList());
        if (source != null && !binary) {
            asSent(types, select, schema, table, columns);
        }
        CopyRowDigests rows = new CopyRowDigests(types,
                new ContentDigester(columns.size(), ContentDigester.positions(columns, keyColumns))
                        .observe(observer, observedSlot));
        if (keyedPlan != null) {
            // The plan's column is a source column: its place among the loaded columns is the same on both sides.
            rows.readingKey(LoadColumns.sourcesOf(loaded, columns).indexOf(keyedPlan.column()));
        }
        rows.into(digests, keyedPlan);
        String sql = "COPY (SELECT " + String.join(", ", select)
                + " FROM " + PostgresIdentifiers.qualified(schema, table) + blocks(part) + ") TO STDOUT"
                + (binary ? " (FORMAT binary)" : "");
        CopyOut out = target.unwrap(PGConnection.class).getCopyAPI().copyOut(sql);
        try {
            boolean first = true;
            for (byte[] message = out.readFromCopy(); message != null; message = out.readFromCopy()) {
                if (!binary) {
                    rows.textRow(message);
                    continue;
                }
                int offset = first ? PostgresBinaryCopy.headerLength(message) : 0;
                first = false;
                if (PostgresBinaryCopy.fieldCount(message, offset) == -1) {
                    continue;
                }
                rows.binaryRow(message, offset);
            }
        } finally {
            new CopyOutInputStream(out, target.unwrap(PGConnection.class)).close();
        }
        return digests;
    }

    /** The part's block range as a TID range condition; nothing for the whole table. */
    private static String blocks(TablePart part) {
        if (part.whole()) {
            return "";
        }
        return " WHERE ctid >= '(" + part.from() + ",0)'::tid"
                + (part.to() < 0 ? "" : " AND ctid < '(" + part.to() + ",0)'::tid");
    }

    /** Widened columns read as the lanes digested them: their families, or (character) a cast to the source type. */
    private void asSent(PgType[] types, List<String> select, String schema, String table, List<String> columns)
            throws SQLException {
        List<String> sourceColumns = LoadColumns.sourcesOf(loaded, columns);
        PgType[] sent = ColumnFamilies.of(source, sourceSchema, sourceTable, sourceColumns);
        Map<String, String> sentTypes = formatTypes(source, sourceSchema, sourceTable);
        Map<String, String> storedTypes = formatTypes(target, schema, table);
        for (int c = 0; c < types.length; c++) {
            String column = columns.get(c);
            String sentType = sentTypes.get(sourceColumns.get(c));
            if (sent[c] == null || types[c] == null || sentType.equals(storedTypes.get(column))) {
                continue;
            }
            boolean integerIntoNumeric = (sent[c] == PgType.INT2 || sent[c] == PgType.INT4 || sent[c] == PgType.INT8)
                    && types[c] == PgType.NUMERIC;
            if (integerIntoNumeric || sent[c] == PgType.FLOAT4 && types[c] == PgType.FLOAT8) {
                types[c] = sent[c];
            } else if (sent[c] == PgType.BPCHAR && types[c] == PgType.BPCHAR) {
                // Only blanks lie past the source's length in a value loaded from it.
                select.set(c, PostgresIdentifiers.quote(column) + "::" + sentType);
            }
        }
    }

    /** Each column's {@code format_type}, as the catalog reader prints it (user types schema-qualified). */
    private static Map<String, String> formatTypes(Connection c, String schema, String table) throws SQLException {
        PostgresCatalog catalog = new PostgresCatalog(c);
        long oid = catalog.relation(schema, table).orElseThrow(() -> new IllegalStateException(
                schema + "." + table + " does not exist")).oid();
        Map<String, String> types = new HashMap<>();
        for (PostgresCatalog.Column column : catalog.columns(oid)) {
            types.put(column.name(), column.type());
        }
        return types;
    }
}
