package io.dpone.backfill.core.ledger;

import java.time.Instant;

/** A person's approval of a campaign's swap (issue 28): who, and when by the ledger database's clock. */
public record PublicationApproval(String approvedBy, Instant approvedAt) {
}
