package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.core.lane.ChunkRows;

import java.util.Iterator;

/** Rows of decoded values for the bulk copy to pull, one at a time, from whatever yields them. */
final class ValueRows implements ChunkRows {
    private final Iterator<Object[]> rows;
    private Object[] current;

    ValueRows(Iterator<Object[]> rows) {
        this.rows = rows;
    }

    @Override
    public boolean next() {
        current = rows.hasNext() ? rows.next() : null;
        return current != null;
    }

    @Override
    public byte[] copyBytes() {
        throw new UnsupportedOperationException("staged rows are decoded values");
    }

    @Override
    public Object[] values() {
        return current;
    }

    @Override
    public void close() {
    }
}
