package io.dpone.backfill.wiring;

import io.dpone.backfill.testsupport.postgres.PostgresDatabase;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * Writes to {@code public.items (id uuid, qty integer, note text)} of a source in random blocks, as an application
 * would while a campaign loads: small updates (HOT when the page has room), updates that grow a row so its new version
 * lands in another block, deletes and inserts, a batch per transaction. Counts what it did, so a test can show the
 * writes it relies on really happened. Thread-safe: one connection, one batch at a time.
 */
final class RandomBlockWriter implements AutoCloseable {
    private final Connection connection;
    private final Random random;
    /** Every key inserted, with the 64-bit id of the transaction that inserted it. */
    private final Map<UUID, BigInteger> inserted = new HashMap<>();
    private final List<UUID> insertedInBatch = new ArrayList<>();
    private long movedUpdates;
    private long sameBlockUpdates;
    private long hotUpdates;
    private long deletes;
    private long batches;

    RandomBlockWriter(PostgresDatabase source, long seed) throws SQLException {
        this.connection = source.connect();
        this.connection.setAutoCommit(false);
        this.random = new Random(seed);
    }

    /** One transaction of {@code operations} writes, each on a row of a random block of the heap. */
    synchronized void batch(int operations) throws SQLException {
        // The xact counter also holds earlier transactions' counts until they are flushed: count this one's delta.
        long hotBefore = hotUpdatesPending();
        long blocks = blocks();
        for (int i = 0; i < operations; i++) {
            int op = random.nextInt(10);
            if (op < 2) {
                insert();
                continue;
            }
            String target = rowInBlock(random.nextLong(Math.max(1, blocks)));
            if (target == null) {
                continue;
            }
            if (op < 3) {
                delete(target);
            } else {
                // Half grow the row past its page's free space (a new block), half change one unindexed int (HOT).
                update(target, op < 6);
            }
        }
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_stat_get_xact_tuples_hot_updated('public.items'::regclass),"
                     + " pg_current_xact_id()::text")) {
            rs.next();
            hotUpdates += rs.getLong(1) - hotBefore;
            BigInteger xid = new BigInteger(rs.getString(2));
            insertedInBatch.forEach(id -> inserted.put(id, xid));
        }
        connection.commit();
        insertedInBatch.clear();
        batches++;
    }

    private long hotUpdatesPending() throws SQLException {
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_stat_get_xact_tuples_hot_updated('public.items'::regclass)")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private long blocks() throws SQLException {
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_relation_size('public.items') / current_setting('block_size')::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private String rowInBlock(long block) throws SQLException {
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT id::text FROM public.items WHERE ctid >= '(" + block + ",0)'::tid"
                     + " AND ctid < '(" + (block + 1) + ",0)'::tid LIMIT 1")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    private void insert() throws SQLException {
        UUID id = UUID.randomUUID();
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO public.items VALUES (?, ?, 'inserted while loading')")) {
            ps.setObject(1, id);
            ps.setInt(2, -1 - random.nextInt(1_000_000));
            ps.executeUpdate();
        }
        insertedInBatch.add(id);
    }

    private void delete(String id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("DELETE FROM public.items WHERE id = ?::uuid")) {
            ps.setString(1, id);
            deletes += ps.executeUpdate();
        }
    }

    private void update(String id, boolean grow) throws SQLException {
        String set = grow ? "note = note || ' ' || (SELECT string_agg(md5(random()::text), '') FROM generate_series(1, 12))"
                : "qty = qty + 1";
        try (PreparedStatement ps = connection.prepareStatement("WITH before AS (SELECT ctid FROM public.items WHERE id = ?::uuid)"
                + " UPDATE public.items SET " + set + " WHERE id = ?::uuid"
                + " RETURNING (ctid::text::point)[0] <> (SELECT (ctid::text::point)[0] FROM before)")) {
            ps.setString(1, id);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    if (rs.getBoolean(1)) {
                        movedUpdates++;
                    } else {
                        sameBlockUpdates++;
                    }
                }
            }
        }
    }

    /** Keys inserted by transactions at or after {@code xid}: for an anchor, the rows the incremental pass brings. */
    synchronized Set<UUID> insertedFrom(BigInteger xid) {
        Set<UUID> keys = new HashSet<>();
        inserted.forEach((id, by) -> {
            if (by.compareTo(xid) >= 0) {
                keys.add(id);
            }
        });
        return keys;
    }

    synchronized long movedUpdates() {
        return movedUpdates;
    }

    synchronized long sameBlockUpdates() {
        return sameBlockUpdates;
    }

    synchronized long hotUpdates() {
        return hotUpdates;
    }

    synchronized long deletes() {
        return deletes;
    }

    synchronized long batches() {
        return batches;
    }

    @Override
    public synchronized void close() throws SQLException {
        connection.rollback();
        connection.close();
    }
}
