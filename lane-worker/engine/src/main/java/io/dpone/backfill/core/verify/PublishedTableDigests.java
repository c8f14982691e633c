package io.dpone.backfill.core.verify;

import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.digest.DigestTable;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.plan.ChunkPlan;

import java.util.List;

/**
 * The target half of {@code verify} (ADR 0018): streams the published table once and digests its rows with the
 * canonical encoding the lanes used, each row into the slot of the plan's chunk that holds its chunk key.
 */
public interface PublishedTableDigests {
    /**
     * @param plan     the immutable plan: a key-range plan yields one slot per chunk; a physical plan one slot for
     *                 the whole table (a row cannot be placed in a block range)
     * @param encoding how the lanes moved rows (the ledger's record): the reader uses the same wire where it can
     */
    default DigestTable read(String schema, String table, List<String> columns, List<String> keyColumns, ChunkPlan plan,
                             RowEncoding encoding) throws Exception {
        return read(schema, table, columns, keyColumns, plan, encoding, null, -1);
    }

    /**
     * The same, with {@code observer} seeing each row's canonical fields as it is digested, only the rows that fall
     * in slot {@code observedSlot} (-1: every row): how a difference is located (ADR 0036).
     */
    DigestTable read(String schema, String table, List<String> columns, List<String> keyColumns, ChunkPlan plan,
                     RowEncoding encoding, ContentDigester.RowObserver observer, int observedSlot) throws Exception;

    /**
     * At most {@code wanted} parts of {@code schema.table} that together hold each row once, for reading on as many
     * sessions at once (the read-back gate, ADR 0036); the whole table where this target cannot split it. The table
     * must not change between the split and the reads.
     */
    default List<TablePart> split(String schema, String table, int wanted) throws Exception {
        return List.of(TablePart.WHOLE);
    }

    /** The digests of one part of {@link #split}'s, slotted as {@link #read} slots the whole table's. */
    default DigestTable read(String schema, String table, List<String> columns, List<String> keyColumns, ChunkPlan plan,
                             RowEncoding encoding, TablePart part) throws Exception {
        if (!part.whole()) {
            throw new IllegalArgumentException("this reader does not split tables; asked for part " + part);
        }
        return read(schema, table, columns, keyColumns, plan, encoding, null, -1);
    }
}
