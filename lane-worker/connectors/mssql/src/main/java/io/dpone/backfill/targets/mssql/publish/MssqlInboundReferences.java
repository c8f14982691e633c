package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.publish.SwapStamp;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Foreign keys of other tables that reference the table a swap moves out (issue 36, as ADR 0038 on PostgreSQL): a
 * key binds to the referenced object, and {@code sp_rename} keeps it there, so after the renames it would check
 * against the backup. Inside the swap's transaction each is dropped and added again under its own name, with its
 * own {@code ON DELETE} / {@code ON UPDATE} actions and {@code NOT FOR REPLICATION}, referencing the incoming table;
 * a key the user left disabled stays disabled, one left untrusted stays untrusted, a trusted one checks every row
 * as it is added ({@link MssqlForeignKey#add}), after its orphans were counted ({@link MssqlForeignKeyOrphans}).
 */
final class MssqlInboundReferences {
    private final Connection c;

    MssqlInboundReferences(Connection c) {
        this.c = c;
    }

    /**
     * Every foreign key of another table referencing {@code schema.table}, by table then name, but those of the tables
     * in {@code kept} (a group's other outgoing tables, which move aside with it) and of earlier campaigns' backups
     * (kept for a rollback beside the table they were published with).
     */
    List<MssqlForeignKey> of(String schema, String table, Set<String> kept) throws SQLException {
        MssqlForeignKeys keys = new MssqlForeignKeys(c);
        // By object id: the group names its tables as its campaigns spell them, the catalog as they were created.
        Set<Integer> keptIds = new java.util.HashSet<>();
        for (String k : kept) {
            keptIds.add(keys.objectId(schema, k));
        }
        List<MssqlForeignKey> found = new ArrayList<>();
        for (MssqlForeignKeys.Found f : keys.inbound(schema, table)) {
            if (keptIds.contains(f.parentId()) || f.stamp() != null && f.stamp().startsWith(SwapStamp.BACKUP.text(""))) {
                continue;
            }
            found.add(f.key());
        }
        return found;
    }

    /**
     * Re-creates each of {@code references} against {@code schema.incoming}; the first checked key with orphans stops
     * the swap, before its key is dropped, with their count and a sample.
     */
    void repoint(List<MssqlForeignKey> references, String schema, String incoming) throws SQLException {
        String target = MssqlObjectNames.twoPart(schema, incoming);
        for (MssqlForeignKey r : references) {
            if (r.checked()) {
                MssqlForeignKeyOrphans.require(c, r, r.qualifiedTable(), target, r.describe(), r.schema() + "." + r.table());
            }
            for (String sql : statements(r, target)) {
                MssqlShadowTransaction.execute(c, sql);
            }
        }
    }

    /** The statements that move {@code r} onto {@code target} (two-part, quoted), in order. */
    static List<String> statements(MssqlForeignKey r, String target) {
        List<String> sql = new ArrayList<>();
        sql.add(r.drop());
        sql.addAll(r.add(r.qualifiedTable(), r.name(), target));
        return sql;
    }
}
