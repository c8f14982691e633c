package io.dpone.backfill.wiring;

import io.dpone.backfill.testsupport.postgres.PostgresDatabase;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;

/**
 * The simplest incremental pass a handoff starts (ADR 0015), for {@code public.items (id uuid, qty, note)}: upsert
 * every source row whose version was created at or after the XMin anchor, then delete target rows whose key the
 * source no longer has. Epoch 0 only, like physical chunks themselves: a raw xmin is then the full transaction id.
 */
final class IncrementalMergeFromAnchor {
    private IncrementalMergeFromAnchor() {
    }

    /** Returns how many rows it upserted. */
    static long apply(PostgresDatabase source, PostgresDatabase target, String anchor) throws SQLException {
        long upserted = 0;
        try (Connection src = source.connect(); Connection tgt = target.connect()) {
            tgt.setAutoCommit(false);
            try (Statement s = src.createStatement();
                 ResultSet rs = s.executeQuery("SELECT id, qty, note FROM public.items WHERE xmin::text::bigint >= " + Long.parseLong(anchor));
                 PreparedStatement upsert = tgt.prepareStatement("INSERT INTO public.items (id, qty, note) VALUES (?, ?, ?)"
                         + " ON CONFLICT (id) DO UPDATE SET qty = EXCLUDED.qty, note = EXCLUDED.note")) {
                while (rs.next()) {
                    upsert.setObject(1, rs.getObject(1));
                    upsert.setInt(2, rs.getInt(2));
                    upsert.setString(3, rs.getString(3));
                    upsert.addBatch();
                    upserted++;
                }
                upsert.executeBatch();
            }
            Set<String> gone = keys(tgt);
            gone.removeAll(keys(src));
            try (PreparedStatement delete = tgt.prepareStatement("DELETE FROM public.items WHERE id = ?::uuid")) {
                for (String id : gone) {
                    delete.setString(1, id);
                    delete.addBatch();
                }
                delete.executeBatch();
            }
            tgt.commit();
        }
        return upserted;
    }

    private static Set<String> keys(Connection db) throws SQLException {
        Set<String> keys = new HashSet<>();
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT id::text FROM public.items")) {
            while (rs.next()) {
                keys.add(rs.getString(1));
            }
        }
        return keys;
    }
}
