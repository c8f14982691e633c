package io.dpone.backfill.cli.bench;

import io.dpone.backfill.core.plan.ChunkRange;

/** Loads one range of the source into the target; returns the rows it wrote. */
@FunctionalInterface
interface RangeLoader {
    long load(ChunkRange range) throws Exception;
}
