package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.ChunkSpec;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.source.SourceReadCost;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The doctor's word on how many times the campaign as written reads its source table (issue 41, ADR 0055): OK up to
 * {@value #MAX_FACTOR} times the table's pages, a WARNING above, naming the factor, why, and the chunking that reads
 * the table once.
 */
final class PostgresDoctorReadCost {
    /** Up to twice the table: boundary pages and a partly ordered key cost that much; beyond, the chunking does. */
    static final double MAX_FACTOR = 2.0;

    private final Connection source;
    private final List<Finding> findings;

    PostgresDoctorReadCost(Connection source, List<Finding> findings) {
        this.source = source;
        this.findings = findings;
    }

    void check(String schema, String table, ChunkSpec chunk) throws SQLException {
        String name = schema + "." + table;
        ChunkPlan plan;
        try {
            plan = ChunkPlanner.plan(chunk);
        } catch (RuntimeException e) {
            // A chunk spec that does not plan is validation's to refuse; there is nothing to price.
            findings.add(Finding.ok("source.read-cost.unknown", "source reads of " + name + " not estimated: the"
                    + " chunk spec does not plan (" + e.getMessage() + ")"));
            return;
        }
        SourceReadCost cost = new PostgresReadCost(source).estimate(schema, table, plan);
        if (!cost.known()) {
            findings.add(Finding.ok("source.read-cost.unknown", "source reads of " + name + " " + cost.reason()));
            return;
        }
        String campaign = chunk.getBuckets() + " " + chunk.getKind().wireName() + " chunks read source table " + name
                + " " + cost.describe();
        if (cost.factor() <= MAX_FACTOR) {
            findings.add(Finding.ok("source.read-cost.ok", campaign));
            return;
        }
        findings.add(Finding.warning("source.read-cost.high", campaign, fix(schema, table, chunk)));
    }

    private String fix(String schema, String table, ChunkSpec chunk) throws SQLException {
        List<String> refusals = PostgresHeapState.read(source, schema, table).map(PostgresHeapState::refusals)
                .orElse(List.of());
        if (chunk.getKind() == ChunkKind.PHYSICAL || !refusals.isEmpty()) {
            return "Chunk on a NOT NULL integer or uuid column whose order follows the heap's (pg_stats correlation near"
                    + " 1 or -1), or CLUSTER the table on the chunk column before loading"
                    + (refusals.isEmpty() ? "." : "; physical chunks cannot read this table: " + String.join("; ", refusals));
        }
        return "Set chunk.kind: physical and remove chunk.column, keeping chunk.buckets: " + chunk.getBuckets()
                + " (block ranges of about the rows each key range holds now): each chunk then reads its own block"
                + " range once, so the campaign reads the table about once. The trade-off: a physical chunk loads only"
                + " row versions written before the XMin anchor, so rows inserted or updated during loading reach the"
                + " target only through the incremental sync from the anchor, which must run (an update during loading"
                + " can leave the row absent until then); needs PostgreSQL 14+, a plain table and a cluster in xid"
                + " epoch 0 (all true here).";
    }
}
