package io.dpone.backfill.source.postgres;

/**
 * How the server reads a chunk's heap pages, as {@code EXPLAIN} names the plan's scan of the table (ADR 0055). Each
 * kind visits pages differently, which is what {@link PageVisits} models.
 */
enum HeapScan {
    /** {@code Seq Scan} (also parallel): every page of the table, whatever the chunk. */
    SEQUENTIAL("Seq Scan"),
    /** {@code Tid Range Scan}: the pages of one block range, once each. */
    BLOCK_RANGE("Tid Range Scan"),
    /** {@code Bitmap Heap Scan}: each page holding one of the chunk's rows, once, in block order. */
    BITMAP("Bitmap Heap Scan"),
    /** {@code Index Scan}: a page fetch whenever the next row in key order lies on another page. */
    INDEX("Index Scan");

    private final String nodeType;

    HeapScan(String nodeType) {
        this.nodeType = nodeType;
    }

    String nodeType() {
        return nodeType;
    }

    /**
     * The kind of an EXPLAIN node type. An {@code Index Only Scan} is counted as an index scan (at most that many
     * heap fetches; fewer on all-visible pages); anything else as a sequential scan, the most a chunk can read.
     */
    static HeapScan ofNodeType(String nodeType) {
        return nodeType == null ? SEQUENTIAL : switch (nodeType) {
            case "Tid Range Scan" -> BLOCK_RANGE;
            case "Bitmap Heap Scan" -> BITMAP;
            case "Index Scan", "Index Only Scan" -> INDEX;
            default -> SEQUENTIAL;
        };
    }
}
