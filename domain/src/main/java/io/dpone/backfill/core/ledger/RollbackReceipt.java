package io.dpone.backfill.core.ledger;

import java.time.Instant;

/**
 * Proof of an operator-authorised swap back from the backup. {@code acceptedWrites} is null, or what the operator
 * accepted to move away from the live name: writes made to the published table after publication.
 */
public record RollbackReceipt(String runKey, String receiptId, String reason, Instant rolledBackAt, String acceptedWrites) {
    public RollbackReceipt(String runKey, String receiptId, String reason, Instant rolledBackAt) {
        this(runKey, receiptId, reason, rolledBackAt, null);
    }
}
