package io.dpone.backfill.core.source;

import java.util.Locale;

/**
 * How many source pages a campaign's chunks are predicted to visit, against the pages the table has (issue 41,
 * ADR 0055): the sum over every chunk, the most one chunk visits, and why, in the source's own words (the key's
 * order in the heap, the scan the server picks for a chunk). {@link #factor} is how many times the campaign reads the
 * table: about 1 when every chunk reads only its own pages, about the chunk count when each reads nearly all of them.
 * Advisory, like the row estimates: it steers the choice of chunk kind and never decides anything about the data.
 */
public record SourceReadCost(long tablePages, long pagesVisited, int chunks, long largestChunkPages, String reason) {
    private static final String UNKNOWN = "not estimated: ";

    public SourceReadCost {
        reason = reason == null ? "" : reason;
    }

    /** No estimate, and why (a table never analyzed, a source that does not estimate its reads). */
    public static SourceReadCost unknown(String why) {
        return new SourceReadCost(-1, -1, 0, -1, UNKNOWN + why);
    }

    public boolean known() {
        return tablePages >= 0 && pagesVisited >= 0;
    }

    /** Page visits over the table's pages; 0 for an empty table, which costs nothing to read. */
    public double factor() {
        if (!known()) {
            throw new IllegalStateException("no read cost was estimated: " + reason);
        }
        return tablePages == 0 ? 0 : (double) pagesVisited / tablePages;
    }

    /** The factor as people read it: {@code 64.2x}, or {@code 1.0x}. */
    public String factorText() {
        return String.format(Locale.ROOT, "%.1fx", factor());
    }

    /** One line: the factor, what it sums, and why; or why there is no estimate. */
    public String describe() {
        if (!known()) {
            return reason;
        }
        return String.format(Locale.ROOT, "about %s the table's %,d pages (%,d page visits over %,d chunks, at most %,d"
                + " in one chunk): %s", factorText(), tablePages, pagesVisited, chunks, largestChunkPages, reason);
    }
}
