package io.dpone.backfill.cli.bench;

import java.sql.Connection;
import java.util.List;

/** B1: the floor per chunk, the campaign's plan over the same workers, without ledger, shadow or validation. */
final class ChunkedPipeArm implements BenchArm {
    @Override
    public String code() {
        return "B1";
    }

    @Override
    public String description() {
        return "the same pipe per chunk over the campaign's plan and workers, then the key and index built";
    }

    @Override
    public ArmRun run(ArmContext context, ArmPlace place, int repetition) throws Exception {
        place.createBareTable();
        SourceReads reads = context.reads();
        return Measured.run(this, context, place, repetition, () -> {
            List<ChunkTiming> chunks = ChunkWorkers.run(context, place, reads.plan(), (source, target, worker) -> place.pipe(source, reads, target));
            try (Connection target = place.connect()) {
                place.buildIndexes(target);
            }
            return chunks;
        });
    }
}
