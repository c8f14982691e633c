package io.dpone.backfill.target;

import io.dpone.backfill.core.encoding.RowEncoding;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;

/**
 * What a lane's chunk sink loads: {@code columns} of the source table into the same-named columns of the load
 * table (the shadow, or the live table in direct mode), with the chunk's receipt and ledger row in
 * {@code stateSchema}. A sink that writes values reads the source columns' types over {@code source} once.
 *
 * @param keyColumns  the campaign's unique key, to name a row in an error
 * @param receiptWait how long a chunk's transaction waits behind another transaction holding the same chunk's
 *                    receipt (a zombie lane), at most one chunk lease
 * @param encoding    the row encoding preparation recorded in the ledger, or null when it recorded none (the
 *                    sink's own default then)
 */
public record ChunkLoad(String stateSchema, String loadSchema, String loadTable, List<String> columns, List<String> keyColumns,
                        Duration receiptWait, Connection source, String sourceSchema, String sourceTable,
                        RowEncoding encoding) {
    public ChunkLoad {
        columns = List.copyOf(columns);
        keyColumns = List.copyOf(keyColumns);
    }
}
