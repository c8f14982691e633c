package io.dpone.backfill.core.ledger;

import java.time.Instant;

/** Proof of an operator-authorised swap back from the backup. */
public record RollbackReceipt(String runKey, String receiptId, String reason, Instant rolledBackAt) {
}
