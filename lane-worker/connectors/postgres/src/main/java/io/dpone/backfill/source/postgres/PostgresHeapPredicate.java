package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.plan.ChunkRange;

import java.math.BigInteger;

/**
 * The WHERE predicate of one physical chunk (ADR 0015): the tuples stored in the chunk's block range, restricted to
 * versions created by transactions that precede the XMin anchor. The TID bounds make PostgreSQL 14+ read only the
 * range's pages (a TID range scan); the xmin bound leaves every version created at or after the anchor to the
 * incremental pass, which is what makes a row moved by an UPDATE during loading load at most once.
 *
 * <p>{@code xmin} is a raw 32-bit xid and has no ordering operator, so it is compared as its decimal value. That is
 * exact only while the cluster is in xid epoch 0 (every xid ever assigned is below 2^32, so a tuple's raw xmin,
 * frozen or not, is its full transaction id); {@link PostgresHeapChunkGuard} refuses each chunk whose snapshot is
 * past that. The special xids 0 to 2 (invalid, bootstrap, frozen before 9.4) are below every anchor and so load.
 * Never {@code age(xmin)}: a frozen tuple's age says nothing about its order. Literals come only from the plan's
 * numbers and the anchor the ledger holds, which are checked to be integers in range.
 */
public final class PostgresHeapPredicate {
    private static final BigInteger MAX_BLOCK = BigInteger.ONE.shiftLeft(32);

    private PostgresHeapPredicate() {
    }

    public static String render(ChunkRange chunk, BigInteger anchor) {
        String blocks = blocks(chunk);
        if (anchor.signum() <= 0 || anchor.compareTo(PostgresHeapState.FIRST_WRAPPED_XID) >= 0) {
            throw new IllegalArgumentException("anchor " + anchor + " is not an epoch-0 transaction id");
        }
        return blocks + " AND xmin::text::bigint < " + anchor;
    }

    /** The chunk's block range alone, every row version in it whatever its xmin (verify counts the newer ones). */
    public static String blocks(ChunkRange chunk) {
        if (chunk.lowerInclusive() == null) {
            throw new IllegalStateException("physical chunk " + chunk.id() + " has no block range: the plan was not"
                    + " resolved from the heap's size recorded at preparation");
        }
        StringBuilder sql = new StringBuilder("ctid >= ").append(tid(chunk.lowerInclusive()));
        if (chunk.upperExclusive() != null) {
            sql.append(" AND ctid < ").append(tid(chunk.upperExclusive()));
        }
        return sql.toString();
    }

    private static String tid(BigInteger block) {
        if (block.signum() < 0 || block.compareTo(MAX_BLOCK) >= 0) {
            throw new IllegalArgumentException("not a block number: " + block);
        }
        return "'(" + block + ",0)'::tid";
    }
}
