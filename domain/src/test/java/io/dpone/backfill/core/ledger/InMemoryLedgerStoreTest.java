package io.dpone.backfill.core.ledger;

/** The ledger contract on the in-memory ledger the engine's unit tests use: it behaves as PostgreSQL's does. */
class InMemoryLedgerStoreTest extends LedgerStoreContract {
    private final InMemoryLedger ledger = new InMemoryLedger();

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
