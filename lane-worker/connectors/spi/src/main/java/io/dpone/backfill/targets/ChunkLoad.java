package io.dpone.backfill.targets;

import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.source.SourceTable;

import java.time.Duration;
import java.util.List;

/**
 * What a lane's chunk sink loads: {@code sourceColumns} of the source table into {@code columns} of the load table
 * (the shadow, or the live table in direct mode), pair by pair (issue 27), with the chunk's receipt and ledger row in
 * {@code stateSchema}. A sink that writes values learns the source columns' types from {@code source} once.
 *
 * @param keyColumns  the campaign's unique key under the load table's names, to name a row in an error
 * @param receiptWait how long a chunk's transaction waits behind another transaction holding the same chunk's
 *                    receipt (a zombie lane), at most one chunk lease
 * @param encoding    the row encoding preparation recorded in the ledger, or null when it recorded none (the
 *                    sink's own default then)
 */
public record ChunkLoad(String stateSchema, String loadSchema, String loadTable, List<String> columns, List<String> keyColumns,
                        Duration receiptWait, SourceTable source, List<String> sourceColumns, RowEncoding encoding) {
    public ChunkLoad {
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
        sourceColumns = List.copyOf(sourceColumns);
        if (sourceColumns.size() != columns.size()) {
            throw new IllegalArgumentException(sourceColumns.size() + " source columns cannot load " + columns.size()
                    + " target columns");
        }
    }

    /** Columns named the same on both sides. */
    public ChunkLoad(String stateSchema, String loadSchema, String loadTable, List<String> columns, List<String> keyColumns,
                     Duration receiptWait, SourceTable source, RowEncoding encoding) {
        this(stateSchema, loadSchema, loadTable, columns, keyColumns, receiptWait, source, columns, encoding);
    }
}
