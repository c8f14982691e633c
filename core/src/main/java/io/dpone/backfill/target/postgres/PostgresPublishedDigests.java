package io.dpone.backfill.target.postgres;

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
        DigestTable digests = new DigestTable(keyed ? plan.size() : 1);
        CopyRowDigests rows = new CopyRowDigests(ColumnFamilies.of(target, schema, table, columns),
                new ContentDigester(columns.size(), ContentDigester.positions(columns, keyColumns)));
        if (keyed) {
            rows.readingKey(columns.indexOf(plan.column()));
        }
        rows.into(digests, keyed ? plan : null);
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
