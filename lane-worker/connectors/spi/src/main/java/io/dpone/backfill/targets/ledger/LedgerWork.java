package io.dpone.backfill.targets.ledger;

import java.sql.SQLException;

/** Ledger statements run as one unit: in a transaction, or as one store call. */
@FunctionalInterface
public interface LedgerWork<T> {
    T run() throws SQLException;
}
