package io.dpone.backfill.source.postgres;

/**
 * The heap pages one chunk's scan visits (ADR 0055), from what the catalog knows of the table: its pages, its tuples
 * and how closely the chunk column's order follows the heap's ({@code pg_stats.correlation}).
 *
 * <p>A key-range chunk of {@code rows} rows is split as the correlation says: a share {@code |c|} lies in key order
 * on a contiguous run of pages ({@code |c| * rows} over the tuples per page, plus the page the run starts inside);
 * the rest is scattered over the whole heap. A bitmap heap scan visits each page holding a scattered row once:
 * {@code pages * (1 - e^(-scattered / pages))}, the expected distinct pages of that many random rows. An index scan
 * fetches a page whenever the next row in key order lies on another page: about one fetch per scattered row. A
 * sequential scan reads every page for every chunk; a block range reads its own pages once.
 */
final class PageVisits {
    private PageVisits() {
    }

    /** Pages one key-range chunk of {@code rows} estimated rows visits under {@code scan}. */
    static double keyRange(HeapScan scan, double rows, HeapStatistics heap) {
        double pages = heap.pages();
        if (scan == HeapScan.SEQUENTIAL || scan == HeapScan.BLOCK_RANGE) {
            return pages;
        }
        if (pages == 0 || rows <= 0) {
            return 0;
        }
        double inOrder = heap.orderedShare();
        double ordered = inOrder * (rows / heap.tuplesPerPage() + 1);
        double scattered = (1 - inOrder) * rows;
        if (scan == HeapScan.BITMAP) {
            return Math.min(pages, ordered + pages * -Math.expm1(-scattered / pages));
        }
        // Index scan: the first scattered row is a fetch; each later one is unless it shares the last row's page.
        return ordered + (scattered < 1 ? scattered : 1 + (scattered - 1) * (1 - 1 / pages));
    }

    /** Pages one physical chunk of {@code blocks} blocks visits: its own, or the whole heap on a sequential scan. */
    static double blockRange(HeapScan scan, long blocks, HeapStatistics heap) {
        return scan == HeapScan.BLOCK_RANGE ? blocks : heap.pages();
    }
}
