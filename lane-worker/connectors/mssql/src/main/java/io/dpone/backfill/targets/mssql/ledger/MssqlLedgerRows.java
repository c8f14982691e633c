package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.mssql.MssqlJdbc;
import io.dpone.backfill.targets.LedgerRows;

/** The ledger rows as records, for the column lists in {@link MssqlLedgerText}; datetime2 columns hold UTC. */
final class MssqlLedgerRows {
    static final LedgerRows ROWS = new LedgerRows(MssqlJdbc::instant);

    private MssqlLedgerRows() {
    }
}
