package io.dpone.backfill.core.ledger;

import java.time.Instant;
import java.util.List;

/**
 * Proof of an operator-authorised swap back from the backup. {@code acceptedWrites} is null, or what the operator
 * accepted to move away from the live name: writes made to the published table after publication.
 * {@code groupTables}: the other members' tables ({@code schema.table}) the same transaction swapped back, when the
 * campaign is a member of a publication group (issue 40: a rollback names everything it changed); empty otherwise.
 */
public record RollbackReceipt(String runKey, String receiptId, String reason, Instant rolledBackAt, String acceptedWrites,
                              List<String> groupTables) {
    public RollbackReceipt {
        groupTables = List.copyOf(groupTables);
    }

    public RollbackReceipt(String runKey, String receiptId, String reason, Instant rolledBackAt, String acceptedWrites) {
        this(runKey, receiptId, reason, rolledBackAt, acceptedWrites, List.of());
    }

    public RollbackReceipt(String runKey, String receiptId, String reason, Instant rolledBackAt) {
        this(runKey, receiptId, reason, rolledBackAt, null);
    }

    public RollbackReceipt withGroupTables(List<String> tables) {
        return new RollbackReceipt(runKey, receiptId, reason, rolledBackAt, acceptedWrites, tables);
    }
}
