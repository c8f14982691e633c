package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.doctor.Finding;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Source checks about the heap (ADR 0015): for {@code chunk.kind: physical}, every reason the table cannot be loaded
 * in block ranges exactly once is an error before the campaign starts. (Whether key ranges should give way to
 * physical chunks is {@link PostgresDoctorReadCost}'s word, from the reads it predicts.)
 */
final class PostgresDoctorHeap {
    private final Connection source;
    private final List<Finding> findings;

    PostgresDoctorHeap(Connection source, List<Finding> findings) {
        this.source = source;
        this.findings = findings;
    }

    void check(String schema, String table, ChunkKind kind) throws SQLException {
        Optional<PostgresHeapState> read = PostgresHeapState.read(source, schema, table);
        if (read.isEmpty() || kind != ChunkKind.PHYSICAL) {
            return;
        }
        PostgresHeapState heap = read.get();
        List<String> refusals = heap.refusals();
        for (String reason : refusals) {
            findings.add(Finding.error("source.physical.unsupported", "chunk.kind physical cannot load "
                    + schema + "." + table + " exactly once: " + reason, "Use chunk.kind uuid or integer on a"
                    + " NOT NULL key column (key ranges are immune to rows moving between blocks)."));
        }
        if (refusals.isEmpty()) {
            findings.add(Finding.ok("source.physical.ok", "source table " + schema + "." + table + " can be read"
                    + " in block ranges (" + heap.blocks() + " blocks now; the last chunk takes any growth);"
                    + " rows changed after the XMin anchor are left to the incremental pass"));
        }
    }
}
