package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.plan.HeapExtent;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The source heap as physical chunks need it (ADR 0015), read in one catalog query: the server version (TID range
 * scans are PostgreSQL 14+), the relation's kind and whether it has inheritance children or partitions, its size in
 * blocks, its storage identity ({@code oid/relfilenode}) and the next transaction id of the current snapshot. The
 * same reading serves preparation (plan and record), {@code doctor} (explain a refusal before the campaign) and every
 * chunk (prove, inside the chunk's own snapshot, that the recorded plan still addresses the same rows).
 */
public record PostgresHeapState(int serverVersion, char relkind, boolean hasChildren, long blocks, String storage,
                                BigInteger nextXid) {
    /** Transaction ids below this are in epoch 0: a raw 32-bit xmin is then the transaction's full 64-bit id. */
    public static final BigInteger FIRST_WRAPPED_XID = BigInteger.ONE.shiftLeft(32);
    public static final int TID_RANGE_SCAN_VERSION = 140000;

    private static final String QUERY = """
            SELECT pg_catalog.current_setting('server_version_num')::int, c.relkind, c.relhassubclass,
                   pg_catalog.pg_relation_size(c.oid, 'main') / pg_catalog.current_setting('block_size')::bigint,
                   c.oid::text || '/' || coalesce(pg_catalog.pg_relation_filenode(c.oid)::text, 'none'),
                   pg_catalog.pg_snapshot_xmax(pg_catalog.pg_current_snapshot())::text
              FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = ? AND c.relname = ?""";

    /** Empty when the relation does not exist. */
    public static Optional<PostgresHeapState> read(Connection source, String schema, String table) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement(QUERY)) {
            ps.setString(1, schema);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new PostgresHeapState(rs.getInt(1), rs.getString(2).charAt(0), rs.getBoolean(3),
                        rs.getLong(4), rs.getString(5), new BigInteger(rs.getString(6))));
            }
        }
    }

    /**
     * Why this heap cannot be loaded in physical chunks exactly once; empty when it can. Each reason says what and
     * why, so doctor, preparation and a lane refuse with the same words.
     */
    public List<String> refusals() {
        List<String> reasons = new ArrayList<>();
        if (serverVersion < TID_RANGE_SCAN_VERSION) {
            reasons.add("the source server is PostgreSQL " + serverVersion + "; physical chunks need 14 or later,"
                    + " where a block range is read by a TID range scan (earlier servers scan the whole heap per chunk)");
        }
        if (relkind != 'r') {
            reasons.add("the source relation has relkind '" + relkind + "', not a plain table ('r'): a partitioned"
                    + " table, view or foreign table has no heap of its own to cut into block ranges");
        } else if (hasChildren) {
            reasons.add("the source table has (or had) inheritance children: their blocks would be read with the"
                    + " parent's block ranges and their storage is not checked");
        }
        if (nextXid.compareTo(FIRST_WRAPPED_XID) >= 0) {
            reasons.add("the source cluster's transaction ids have wrapped (next xid " + nextXid + " is in epoch "
                    + nextXid.shiftRight(32) + "): a frozen tuple keeps its raw 32-bit xmin, which may then"
                    + " equal the xid of a transaction after the anchor, and SQL cannot tell frozen tuples apart,"
                    + " so the anchor rule could drop such a row silently");
        }
        return reasons;
    }

    public HeapExtent extent() {
        return new HeapExtent(blocks, storage);
    }
}
