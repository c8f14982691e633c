package io.dpone.backfill.target.postgres;

import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.digest.DigestTable;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.verify.PublishedTableDigests;
import io.dpone.backfill.postgres.PostgresBinaryCopy;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.source.postgres.binary.CopyOutInputStream;
import io.dpone.backfill.source.postgres.digest.ColumnFamilies;
import io.dpone.backfill.source.postgres.digest.CopyRowDigests;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

import java.sql.Connection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The published PostgreSQL table's digests for {@code verify}: one {@code COPY (SELECT <loaded columns> FROM table)
 * TO STDOUT} on the wire the lanes used (binary when they moved binary tuples, else text), each row canonicalised by
 * its own column's type (the target's catalog) and placed in its chunk by its chunk key, in Java, streaming.
 */
public final class PostgresPublishedDigests implements PublishedTableDigests {
    private final Connection target;

    public PostgresPublishedDigests(Connection target) {
        this.target = target;
    }

    @Override
    public DigestTable read(String schema, String table, List<String> columns, List<String> keyColumns, ChunkPlan plan,
                            RowEncoding encoding) throws Exception {
        boolean keyed = plan.kind().keyed();
        return stream(schema, table, columns, keyColumns, keyed ? plan : null, encoding);
    }

    /**
     * The digest of every row of the table, {@code columns} in that order, read on {@code encoding}'s wire: what a
     * rollback compares with the receipts' sum that publication recorded (ADR 0022). Runs inside the caller's
     * transaction when it has one.
     */
    public ChunkDigest wholeTable(String schema, String table, List<String> columns, RowEncoding encoding)
            throws Exception {
        // Only the full-row hash is compared (it covers every column): any column may stand in as the key.
        return stream(schema, table, columns, columns.subList(0, 1), null, encoding).total();
    }

    private DigestTable stream(String schema, String table, List<String> columns, List<String> keyColumns,
                               ChunkPlan keyedPlan, RowEncoding encoding) throws Exception {
        DigestTable digests = new DigestTable(keyedPlan != null ? keyedPlan.size() : 1);
        CopyRowDigests rows = new CopyRowDigests(ColumnFamilies.of(target, schema, table, columns),
                new ContentDigester(columns.size(), ContentDigester.positions(columns, keyColumns)));
        if (keyedPlan != null) {
            rows.readingKey(columns.indexOf(keyedPlan.column()));
        }
        rows.into(digests, keyedPlan);
        boolean binary = encoding == RowEncoding.POSTGRES_COPY_BINARY;
        String sql = "COPY (SELECT " + columns.stream().map(PostgresIdentifiers::quote).collect(Collectors.joining(", "))
                + " FROM " + PostgresIdentifiers.qualified(schema, table) + ") TO STDOUT" + (binary ? " (FORMAT binary)" : "");
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
}
