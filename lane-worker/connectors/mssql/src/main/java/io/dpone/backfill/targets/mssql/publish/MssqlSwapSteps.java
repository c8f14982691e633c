package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.publish.SwapStamp;
import io.dpone.backfill.core.publish.SwapSteps;
import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;
import io.dpone.backfill.targets.mssql.publish.MssqlSwapRenamer.Carry;

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

    // Every live table this transaction moves: a key between two of them is added by the swap, not the shadow build.
    private final java.util.Set<String> moving;
    private java.util.Map<Integer, String> movingById;

    MssqlSwapSteps(Connection c, String schema, java.util.Collection<String> moving) {
        this.c = c;
        this.schema = schema;
        this.renamer = new MssqlSwapRenamer(c);
        this.moving = java.util.Set.copyOf(moving);
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
        java.util.Set<String> addedAtSwap = new java.util.HashSet<>();
        java.util.Map<Integer, String> others = otherMembers(outgoing);
        for (MssqlForeignKey key : new MssqlForeignKeys(c).outbound(schema, outgoing)) {
            if (others.containsKey(key.referencedId())) {
                addedAtSwap.add(key.name());
            }
        }
        return MssqlSwapRenamer.unmatched(carries).stream().filter(n -> !addedAtSwap.contains(n)).toList();
    }

    @Override
    public String notRebuilt() {
        return " (XML, spatial and nonclustered columnstore indexes are not rebuilt by this version)";
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

    /**
     * Adds each key of {@code outgoing} to another member of the group on {@code incoming}, against that member's
     * incoming table, under the shadow-side name, checked (its orphans counted first, so a block names them) unless
     * the live key is disabled or untrusted; then pairs the names anew, so the renames carry it like any other.
     * SQL Server could create such a key untrusted on the shadow and trust it here ({@code WITH CHECK CHECK
     * CONSTRAINT}); adding it here checks the same rows once and never leaves an untrusted key behind.
     */
    @Override
    public void validateDeferredKeys(String outgoing, String incoming, java.util.function.UnaryOperator<String> incomingNameOf,
                                     java.util.Map<String, String> incomingOf) throws SQLException {
        java.util.Map<Integer, String> others = otherMembers(outgoing);
        String onTable = MssqlObjectNames.twoPart(schema, incoming);
        MssqlForeignKeys catalog = new MssqlForeignKeys(c);
        List<String> present = catalog.outbound(schema, incoming).stream().map(MssqlForeignKey::name).toList();
        boolean added = false;
        for (MssqlForeignKey key : catalog.outbound(schema, outgoing)) {
            String member = others.get(key.referencedId());
            String name = incomingNameOf.apply(key.name());
            if (member == null || present.contains(name)) {
                continue;
            }
            String referenced = MssqlObjectNames.twoPart(schema, incomingOf.get(member));
            if (key.checked()) {
                MssqlForeignKeyOrphans.require(c, key, onTable, referenced, key.describe()
                        + " onto the group's incoming " + member, schema + "." + incoming);
            }
            for (String sql : key.add(onTable, name, referenced)) {
                MssqlShadowTransaction.execute(c, sql);
            }
            added = true;
        }
        if (added) {
            plans.put(outgoing, renamer.plan(schema, outgoing, incoming, incomingNameOf));
        }
    }

    /** The other tables this transaction moves, by object id (as SQL Server resolves their names), to their names. */
    private java.util.Map<Integer, String> otherMembers(String outgoing) throws SQLException {
        java.util.Map<Integer, String> others = new java.util.HashMap<>(movingById());
        others.values().remove(outgoing);
        return others;
    }

    /**
     * Every moving table by object id, resolved once per transaction at its first use: every caller (the checks,
     * the keys between members) runs before the renames, after which the names would resolve to other objects.
     */
    private java.util.Map<Integer, String> movingById() throws SQLException {
        if (movingById == null) {
            MssqlForeignKeys catalog = new MssqlForeignKeys(c);
            java.util.Map<Integer, String> ids = new java.util.HashMap<>();
            for (String table : moving) {
                Integer id = catalog.objectId(schema, table);
                if (id != null) {
                    ids.put(id, table);
                }
            }
            movingById = ids;
        }
        return movingById;
    }
}
