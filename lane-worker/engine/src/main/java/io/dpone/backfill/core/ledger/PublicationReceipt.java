package io.dpone.backfill.core.ledger;

import java.time.Instant;

/** Proof that the shadow became the live table in one transaction. */
public record PublicationReceipt(String runKey, String receiptId, String schema, String liveTable, String backupTable,
                                 String shadowTable, long rows, Instant publishedAt) {
}
