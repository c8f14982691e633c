package io.dpone.backfill.core.ledger;

import java.time.Duration;

/**
 * The ledger contract on the in-memory ledger the engine's unit tests use: it behaves as PostgreSQL's does, with its
 * leases on a clock the test moves, so no test sleeps through an expiry.
 */
class InMemoryLedgerStoreTest extends LedgerStoreContract {
    private final MovableClock clock = new MovableClock();
    private final InMemoryLedger ledger = new InMemoryLedger(clock);

    @Override
    protected void letLeasesRunFor(Duration duration) {
        clock.advance(duration);
    }

    @Override
    protected LedgerStore newStore() {
        return ledger.connect();
    }

    @Override
    protected LedgerStore otherStore() {
        return ledger.connect();
    }

    @Override
    protected LedgerStore storeOnItsOwnSession() {
        return ledger.connect();
    }

    @Override
    protected void endSession(LedgerStore store, String runKey) {
        ledger.endSession((InMemoryLedger.Store) store);
    }

    @Override
    protected void forgetProgressCounters(String runKey) {
        // This ledger has no counters: it always counts from its chunks.
    }

    @Override
    protected void writeChunkReceipt(String runKey, int chunkId, String owner, long epoch, long rows) {
        ledger.writeChunkReceipt(runKey, chunkId, rows);
    }
}
