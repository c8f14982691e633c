package io.dpone.backfill.core.publish;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * What a target does inside the one transaction of a publication or of its rollback, step by step, on the tables of
 * one schema. {@link SwapOrder} calls the steps in the order that makes the swap safe; a target implements the steps
 * and never the order. Every step runs in the transaction the target opened (lock timeout and the target lock taken),
 * so nothing a step changes is seen before the commit.
 */
public interface SwapSteps {

    // The catalog.

    /** True when {@code table} exists and is an ordinary table (not a view). */
    boolean isTable(String table) throws SQLException;

    /** True when anything by that name exists. */
    boolean exists(String table) throws SQLException;

    /** Who stamped {@code table} (a campaign's shadow, live or backup stamp, or none), for a person. */
    String describeOwner(String table) throws SQLException;

    /** The stamp text of {@code stamp} for {@code runKey}, as this target writes it. */
    String stampText(SwapStamp stamp, String runKey);

    /** True when {@code table} is a table that carries {@code stamp} for {@code runKey}. */
    boolean carries(String table, SwapStamp stamp, String runKey) throws SQLException;

    /** Throws an ownership failure unless {@code shadow} was created by this run. */
    void requireShadowOwned(String shadow, String runKey) throws SQLException;

    // Writers and content.

    /** Blocks writers of {@code table} until commit; every write committed before it is visible after it. */
    void blockWriters(String table) throws SQLException;

    TableShape liveShape(String table) throws SQLException;

    TableFingerprint fingerprint(String table) throws SQLException;

    /** The fingerprint of {@code table} computed as {@code reference} was, so the two compare. */
    TableFingerprint fingerprintComparableWith(String table, TableFingerprint reference) throws SQLException;

    // The swap.

    /** Locks {@code table} against everything, where its catalog rows would otherwise race (a no-op where renames lock). */
    void lockExclusive(String table) throws SQLException;

    /**
     * Pairs the indexes, constraints and (where the target has them) identity sequences of {@code outgoing} with those
     * of {@code incoming}, named by {@code incomingNameOf}, for {@link #carryNames}. Returns the outgoing table's
     * objects that have no partner on the incoming one.
     */
    List<String> planCarries(String outgoing, String incoming, UnaryOperator<String> incomingNameOf) throws SQLException;

    /** What this target does not rebuild on a shadow, for the message when {@link #planCarries} finds a gap. */
    String notRebuilt();

    /** The live table's owner, permissions, storage settings and identity positions onto the shadow. */
    void carryAttributes(String live, String shadow) throws SQLException;

    /** Before a rollback's renames: what the publication moved onto the published table goes back to the backup. */
    void handBack(String published, String backup) throws SQLException;

    void renameTable(String from, String to) throws SQLException;

    /** After the renames: the planned objects' names carried across, the outgoing ones renamed by {@code renamed}. */
    void carryNames(String outgoing, String incoming, UnaryOperator<String> renamed) throws SQLException;

    /** After a publication's renames: the live table stamped as published by this run, the backup as its backup. */
    void stampPublished(String live, String backup, String runKey) throws SQLException;

    /** After a rollback's renames: the live table as the user had it, the shadow stamped as this run's again. */
    void stampRolledBack(String live, String shadow, String runKey) throws SQLException;

    /**
     * Re-points the foreign keys of other tables that reference {@code outgoing} at {@code incoming}, before the
     * renames and inside the swap's transaction, each validated against {@code incoming} as the original was;
     * throws {@link ReferencedKeysMissingException} when one would not hold. Keys of the tables in {@code kept}
     * stay on {@code outgoing}: in a group's swap those are the other members' outgoing tables, which move aside
     * with it and keep referencing each other. A target that cannot re-point keys refuses here, before any change,
     * when there are any to re-point.
     */
    void repointInboundReferences(String outgoing, String incoming, Set<String> kept) throws SQLException;

    /**
     * In a group's swap, after every member's keys were re-pointed: completes each foreign key of {@code incoming}
     * that the shadow build deferred because it references another member (whose shadow was not loaded yet), where
     * {@code outgoing}'s key of that name (see {@code incomingNameOf}) is validated: a target that created it
     * unvalidated validates it, one that did not create it adds it, checked, against that member's incoming table
     * ({@code incomingOf}: every member's live table to its incoming table). Throws
     * {@link ReferencedKeysMissingException} when one does not hold. A no-op where the build defers none.
     */
    void validateDeferredKeys(String outgoing, String incoming, UnaryOperator<String> incomingNameOf,
                              java.util.Map<String, String> incomingOf) throws SQLException;
}
