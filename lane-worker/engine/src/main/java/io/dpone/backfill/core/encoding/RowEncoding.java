package io.dpone.backfill.core.encoding;

/**
 * How a chunk's rows travel from the source to the sink. The sink names the one it takes and the source produces
 * it, so a PostgreSQL-to-PostgreSQL lane passes COPY bytes through untouched while a sink that needs values gets
 * them decoded.
 */
public enum RowEncoding {
    /** PostgreSQL {@code COPY ... TO STDOUT} text rows, one row's bytes (with its newline) per row. */
    POSTGRES_COPY_TEXT,
    /**
     * PostgreSQL binary COPY tuples, one tuple's bytes per row, without the stream's header and trailer (the sink
     * writes its own). Only when every loaded column has the identical built-in type on both sides, chosen at
     * preparation and recorded in the ledger (ADR 0017).
     */
    POSTGRES_COPY_BINARY,
    /**
     * Decoded values, one Java object per loaded column in load-column order (the source's binary COPY, decoded as
     * it streams), for a sink that writes values through its own driver.
     */
    VALUES;

    /** The name the ledger records. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The encoding a ledger recorded, or null when it recorded none (a campaign prepared before ADR 0017). */
    public static RowEncoding fromWire(String recorded) {
        if (recorded == null) {
            return null;
        }
        for (RowEncoding e : values()) {
            if (e.wireName().equals(recorded)) {
                return e;
            }
        }
        throw new IllegalArgumentException("the ledger records an unknown row encoding: " + recorded);
    }
}
