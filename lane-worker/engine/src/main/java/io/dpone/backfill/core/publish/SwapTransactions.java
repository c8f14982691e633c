package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.naming.ArtifactNames;

import java.sql.SQLException;
import java.util.List;

/**
 * How a target opens the one transaction of a publication or rollback: its own transaction on a connection in
 * auto-commit, the lock timeout and the lock that serialises every campaign on the live table, then the work over the
 * target's {@link SwapSteps} and its {@link PublicationLedger}; commit when the work returns, roll back and throw the
 * target's classified database failure when it does not.
 */
public interface SwapTransactions {

    @FunctionalInterface
    interface Work<T> {
        /** {@code ledger}: the ledger on the swap's connection, so receipts commit with the swap or not at all. */
        T run(SwapSteps steps, PublicationLedger ledger) throws SQLException;
    }

    /** {@code action} says what runs, for the failure message. */
    default <T> T run(String action, ArtifactNames names, String liveTable, Work<T> work) {
        return runAll(action, names.schema(), List.of(liveTable), work);
    }

    /**
     * One transaction over several live tables of {@code schema} (a publication group's swap, issue 27): the lock of
     * each is taken in name order, so two members' drivers never wait for each other in a circle.
     */
    <T> T runAll(String action, String schema, List<String> liveTables, Work<T> work);
}
