package io.dpone.backfill.cli.bench;

/**
 * B2, the incident's shape: each chunk staged, then upserted (PostgreSQL: INSERT ... ON CONFLICT DO UPDATE; SQL
 * Server: MERGE into the clustered-columnstore live table) with the live table's indexes in place.
 */
final class StagedUpsertArm implements BenchArm {
    @Override
    public String code() {
        return "B2";
    }

    @Override
    public String description() {
        return "per-chunk staging plus upsert into the indexed live table (the load shape this tool replaces)";
    }

    @Override
    public ArmRun run(ArmContext context, ArmPlace place, int repetition) throws Exception {
        place.createLiveTable();
        SourceReads reads = context.reads();
        return Measured.run(this, context, place, repetition,
                () -> ChunkWorkers.run(context, place, reads.plan(), (source, target, worker) -> place.stagedUpsert(source, reads, target, worker)));
    }
}
