package io.dpone.backfill.cli.bench;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.HeapExtent;


/**
 * The benchmark's campaign as a user would write it: 4 lanes (by default), shadow_swap, the chunk kind asked for.
 * Its chunk plan is also the plan the chunked baselines follow, so every arm moves the same chunks.
 */
final class BenchCampaign {
    private final BenchTable table;
    private final TargetType targetType;
    private final long rows;
    private final int chunks;
    private final int lanes;
    private final String publicationVerify;
    private final long rowsPerSecondCap;

    /**
     * @param publicationVerify the campaign's {@code publication.verify}: content or counts
     * @param rowsPerSecondCap  the campaign's {@code throttle.rowsPerSecond}; 0: no throttle
     */
    BenchCampaign(BenchTable table, TargetType targetType, long rows, int chunks, int lanes, String publicationVerify,
                  long rowsPerSecondCap) {
        this.publicationVerify = publicationVerify;
        this.rowsPerSecondCap = rowsPerSecondCap;
        this.table = table;
        this.targetType = targetType;
        this.rows = rows;
        this.chunks = chunks;
        this.lanes = lanes;
    }

    /** The campaign that loads {@code place}; {@code label} makes its backfill id, so every run has its own run key. */
    CampaignBlueprint blueprint(ArmPlace place, String label) {
        return CampaignBlueprint.of(CampaignReader.parse(yaml(place.schema(), place.table(), place.stateSchema(), "bench_" + label)));
    }

    /** The campaign's plan; physical block ranges over {@code heap} as preparation would resolve them. */
    ChunkPlan plan(HeapExtent heap) {
        if (table.kind() == ChunkKind.PHYSICAL) {
            return ChunkPlanner.physical(chunks, heap.blocks());
        }
        return CampaignBlueprint.of(CampaignReader.parse(yaml("plan", BenchTable.NAME, "backfill_state", "bench_plan"))).plan();
    }

    String yaml(String targetSchema, String targetTable, String stateSchema, String backfillId) {
        String chunk = switch (table.kind()) {
            case INTEGER -> "{column: id, kind: integer, buckets: %d, lowerBound: 1, upperBound: %d}".formatted(chunks, Math.max(rows, chunks));
            case PHYSICAL -> "{kind: physical, buckets: %d}".formatted(chunks);
            case UUID -> "{column: id, kind: uuid, buckets: %d}".formatted(chunks);
        };
        return """
                apiVersion: backfill.dpone.io/v1alpha1
                kind: BackfillCampaign
                metadata:
                  name: bench-orders
                spec:
                  backfillId: %s
                  source: {type: postgres, connectionSecretRef: {name: bench-source}, schema: public, table: %s}
                  target: {type: %s, connectionSecretRef: {name: bench-target}, schema: %s, table: %s}
                  uniqueKey: [id]
                  chunk: %s
                  parallelWorkers: %d
                  state: {schema: %s}
                  publication: {mode: shadow_swap, artifactScope: campaign, verify: %s}
                """.formatted(backfillId, BenchTable.NAME, targetType.wireName(),
                targetSchema, targetTable, chunk, lanes, stateSchema, publicationVerify)
                + (rowsPerSecondCap > 0 ? "  throttle: {rowsPerSecond: " + rowsPerSecondCap + "}\n" : "");
    }
}
