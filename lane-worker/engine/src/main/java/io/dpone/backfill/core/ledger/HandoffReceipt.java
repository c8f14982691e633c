package io.dpone.backfill.core.ledger;

import java.time.Instant;

/** Proof that incremental sync may start from the XMin anchor; written only after publication. */
public record HandoffReceipt(String runKey, String receiptId, String anchorXmin, Instant committedAt) {
}
