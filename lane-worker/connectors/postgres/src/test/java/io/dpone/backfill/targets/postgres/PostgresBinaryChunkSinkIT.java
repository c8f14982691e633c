package io.dpone.backfill.targets.postgres;

import io.dpone.backfill.core.encoding.RowEncoding;

/** The same chunk sink contract with binary COPY tuples passed through, as preparation records for identical types. */
class PostgresBinaryChunkSinkIT extends PostgresChunkSinkIT {
    @Override
    protected RowEncoding encoding() {
        return RowEncoding.POSTGRES_COPY_BINARY;
    }
}
