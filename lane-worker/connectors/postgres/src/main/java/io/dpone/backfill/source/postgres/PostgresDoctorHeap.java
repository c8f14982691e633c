package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.doctor.Finding;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Source checks about the heap (ADR 0015): for {@code chunk.kind: physical}, every reason the table cannot be loaded
 * in block ranges exactly once is an error before the campaign starts; for uuid chunks on a large table, a warning
 * that recommends physical chunks and says what they trade.
 */
final class PostgresDoctorHeap {
    /** 1 GiB at the default 8 kB block size: below it a uuid campaign's repeated heap reads are cheap in cache. */
    static final long LARGE_TABLE_BLOCKS = 131_072;

    private final Connection source;
    private final List<Finding> findings;
    private final long largeTableBlocks;

    PostgresDoctorHeap(Connection source, List<Finding> findings) {
        this(source, findings, LARGE_TABLE_BLOCKS);
    }

    /** {@code largeTableBlocks} smaller than the default lets a test see the recommendation on a small table. */
    PostgresDoctorHeap(Connection source, List<Finding> findings, long largeTableBlocks) {
        this.source = source;
        this.findings = findings;
        this.largeTableBlocks = largeTableBlocks;
    }

    void check(String schema, String table, ChunkKind kind) throws SQLException {
        Optional<PostgresHeapState> read = PostgresHeapState.read(source, schema, table);
        if (read.isEmpty()) {
            return;
        }
        PostgresHeapState heap = read.get();
        List<String> refusals = heap.refusals();
        if (kind == ChunkKind.PHYSICAL) {
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
            return;
        }
        if (kind == ChunkKind.UUID && heap.blocks() >= largeTableBlocks && refusals.isEmpty()) {
            findings.add(Finding.warning("source.chunk-kind.physical-recommended", "source table " + schema + "."
                    + table + " has " + heap.blocks() + " blocks and random uuid keys: each uuid chunk's rows are"
                    + " scattered over nearly every page, so the campaign reads the heap about once per chunk",
                    "Consider chunk.kind physical (remove chunk.column): each chunk reads its own block range once, so"
                            + " the campaign reads the heap about once. The trade-off: a physical chunk loads only row"
                            + " versions written before the XMin anchor, so rows inserted or updated during loading"
                            + " reach the target only through the incremental sync from the anchor, which must run"
                            + " (an update during loading can leave the row absent until then); not for partitioned"
                            + " or inheritance parents; needs PostgreSQL 14+ and a cluster in xid epoch 0."));
        }
    }
}
