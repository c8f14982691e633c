package io.dpone.backfill.target.mssql.publish;

import io.dpone.backfill.core.target.SwapStamp;
import io.dpone.backfill.core.target.SwapSteps;
import io.dpone.backfill.core.target.TableFingerprint;
import io.dpone.backfill.core.target.TableShape;
import io.dpone.backfill.target.mssql.MssqlIdentifiers;
import io.dpone.backfill.target.mssql.publish.MssqlSwapRenamer.Carry;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * SQL Server's steps of a publication or rollback ({@code SwapOrder} orders them), in one transaction on one schema.
 * Stamps are extended properties on the table; renames ({@code sp_rename}) take their own schema-modification locks,
 * so no separate exclusive lock is needed.
 */
final class MssqlSwapSteps implements SwapSteps {
    private final Connection c;
    private final String schema;
    private final MssqlSwapRenamer renamer;
    // By the name of the table that holds the names at planning and gets them back at carrying (the live table's
    // name): a publication group's swap plans every member before it carries any.
    private final java.util.Map<String, List<Carry>> plans = new java.util.HashMap<>();

    MssqlSwapSteps(Connection c, String schema) {
        this.c = c;
        this.schema = schema;
        this.renamer = new MssqlSwapRenamer(c);
    }

    @Override
    public boolean isTable(String table) throws SQLException {
        return MssqlTables.isTable(c, schema, table);
    }

    @Override
    public boolean exists(String table) throws SQLException {
        return MssqlTables.exists(c, schema, table);
    }

    @Override
    public String describeOwner(String table) throws SQLException {
        return MssqlShadowStamp.describeOwner(MssqlShadowStamp.read(c, schema, table));
    }

    @Override
    public String stampText(SwapStamp stamp, String runKey) {
        // A property of its own: nothing else shares it, so it needs no marker.
        return stamp.text(runKey);
    }

    @Override
    public boolean carries(String table, SwapStamp stamp, String runKey) throws SQLException {
        return stampText(stamp, runKey).equals(MssqlShadowStamp.read(c, schema, table));
    }

    @Override
    public void requireShadowOwned(String shadow, String runKey) throws SQLException {
        MssqlShadowCreator.requireOwned(c, schema, shadow, runKey);
    }

    @Override
    public void blockWriters(String table) throws SQLException {
        blockWriters(c, schema, table);
    }

    @Override
    public TableShape liveShape(String table) throws SQLException {
        return MssqlTargetCatalog.liveShape(c, schema, table);
    }

    @Override
    public TableFingerprint fingerprint(String table) throws SQLException {
        return MssqlTableFingerprint.of(c, schema, table);
    }

    @Override
    public TableFingerprint fingerprintComparableWith(String table, TableFingerprint reference) throws SQLException {
        // One fingerprint form on SQL Server: every receipt was written with it.
        return MssqlTableFingerprint.of(c, schema, table);
    }

    @Override
    public void lockExclusive(String table) {
        // sp_rename takes a schema-modification lock on each table it renames, inside this transaction.
    }

    @Override
    public List<String> planCarries(String outgoing, String incoming, UnaryOperator<String> incomingNameOf)
            throws SQLException {
        List<Carry> carries = renamer.plan(schema, outgoing, incoming, incomingNameOf);
        plans.put(outgoing, carries);
        return MssqlSwapRenamer.unmatched(carries);
    }

    @Override
    public String notRebuilt() {
        return " (foreign keys, XML, spatial and nonclustered columnstore indexes are not rebuilt by this version)";
    }

    @Override
    public void carryAttributes(String live, String shadow) throws SQLException {
        new MssqlSwapAccess(c).copy(schema, live, shadow);
        new MssqlSwapIdentity(c).carry(schema, live, shadow, new MssqlCatalogColumns(c).of(schema, shadow));
    }

    @Override
    public void handBack(String published, String backup) {
        // The backup's owner and permissions were never changed, and an identity's position lives in its table.
    }

    @Override
    public void renameTable(String from, String to) throws SQLException {
        renamer.renameTable(schema, from, to);
    }

    @Override
    public void carryNames(String outgoing, String incoming, UnaryOperator<String> renamed) throws SQLException {
        List<Carry> carries = plans.get(incoming);
        if (carries == null) {
            throw new IllegalStateException("no carries were planned for " + schema + "." + incoming + " before its renames");
        }
        renamer.carry(schema, outgoing, incoming, carries, renamed);
    }

    @Override
    public void stampPublished(String live, String backup, String runKey) throws SQLException {
        MssqlShadowStamp.write(c, schema, live, MssqlShadowStamp.published(runKey));
        MssqlShadowStamp.write(c, schema, backup, MssqlShadowStamp.backup(runKey));
    }

    @Override
    public void stampRolledBack(String live, String shadow, String runKey) throws SQLException {
        MssqlShadowStamp.drop(c, schema, live);
        MssqlShadowStamp.write(c, schema, shadow, MssqlShadowStamp.shadow(runKey));
    }

    /**
     * Blocks writers of a table for the rest of the transaction: {@code TABLOCK, HOLDLOCK} takes a shared table lock
     * held until commit (writers wait, within LOCK_TIMEOUT; readers go on), so every write committed before it is
     * visible to the comparison after it and none can commit between the check and the rename. (Babelfish accepts
     * and ignores table hints; there the application lock and the rename's own locks are all that hold.)
     */
    static void blockWriters(Connection c, String schema, String table) throws SQLException {
        MssqlShadowTransaction.execute(c, "SELECT COUNT_BIG(*) AS held FROM " + MssqlObjectNames.twoPart(schema, table)
                + " WITH (TABLOCK, HOLDLOCK)");
    }

    /** Each other table's key onto the incoming table, with its actions, trust and state ({@link MssqlInboundReferences}). */
    @Override
    public void repointInboundReferences(String outgoing, String incoming, java.util.Set<String> kept) throws SQLException {
        MssqlInboundReferences references = new MssqlInboundReferences(c);
        references.repoint(references.of(schema, outgoing, kept), schema, incoming);
    }

    /** The shadow build defers no keys on SQL Server (see {@code MssqlShadowPublishers}): nothing is left to validate. */
    @Override
    public void validateDeferredKeys(String outgoing, String incoming, java.util.function.UnaryOperator<String> incomingNameOf) {
    }
}
