package io.dpone.backfill.source;

/** How one referencing value, as text, is compared with its source column by a {@link SourceKeyProbe}. */
public enum KeyMatch {
    /**
     * Read as the source column's type, without its modifier (a cast to varchar(10) or numeric(12,2) would cut or
     * round the value into a false match); integers as the widest integer, so a wider referencing value is simply
     * absent.
     */
    TYPED,
    /** The source value's text, exactly. */
    TEXT,
    /** The text with trailing spaces ignored on both sides, as SQL Server compares strings. */
    TEXT_PADDED,
    /**
     * As {@link #TEXT_PADDED}, and A-Z lower-cased on both sides, as a case-insensitive collation compares them.
     * ASCII letters only: how other letters fold depends on the locale (a Turkish one lowers I to a dotless i), so
     * the caller decides what a non-ASCII miss means.
     */
    TEXT_PADDED_CASELESS
}
