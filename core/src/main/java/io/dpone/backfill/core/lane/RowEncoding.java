package io.dpone.backfill.core.lane;

/**
 * How a chunk's rows travel from the source to the sink. The sink names the one it takes and the source produces
 * it, so a PostgreSQL-to-PostgreSQL lane passes COPY bytes through untouched while a sink that needs values gets
 * them decoded.
 */
public enum RowEncoding {
    /** PostgreSQL {@code COPY ... TO STDOUT} text rows, one row's bytes (with its newline) per row. */
    POSTGRES_COPY_TEXT
}
