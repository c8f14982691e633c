package io.dpone.backfill.cli.bench;

import java.sql.Connection;
import java.util.List;

/** B0, the floor: the whole table in one binary COPY stream into a table without indexes, then its indexes built. */
final class RawPipeArm implements BenchArm {
    @Override
    public String code() {
        return "B0";
    }

    @Override
    public String description() {
        return "raw binary COPY pipe in one stream, then the key and index built (the floor)";
    }

    @Override
    public ArmRun run(ArmContext context, ArmPlace place, int repetition) throws Exception {
        place.createBareTable();
        SourceReads whole = context.reads().whole();
        return Measured.run(this, context, place, repetition, () -> {
            try (Connection source = context.source().connect(); Connection target = place.connect()) {
                place.pipe(source, whole, target).load(whole.plan().chunk(0));
                place.buildIndexes(target);
            }
            return List.of();
        });
    }
}
