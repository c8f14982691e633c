package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.campaign.PublicationGroup;
import io.dpone.backfill.core.fault.FaultPoint;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.GroupMember;
import io.dpone.backfill.core.ledger.GroupStanding;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The order of a publication and of its rollback, written once for every target as {@code ChunkProtocol} is for
 * chunks (ADR 0035); each runs inside the one transaction its target opened.
 *
 * <p>Publication: an existing receipt returns at once (replay); the lease read stops a deposed driver before any
 * work; writers of the live table blocked and its shape and content compared with the preparation baseline; identity
 * checks (shadow stamped by this run, backup name free, every index and constraint rebuilt) before any change; owner,
 * permissions, storage and identity positions onto the shadow; other tables' foreign keys re-pointed at the shadow
 * and validated there; live to backup, shadow to live; names carried; stamps;
 * the lease fence and the receipt last.
 *
 * <p>Rollback: an existing rollback receipt returns at once; the lease read; the publication receipt must exist and
 * name these tables; the live table must carry this run's published stamp and the backup its backup stamp; writers
 * of the published table blocked and its content compared with the receipt's fingerprint; the shadow name free; other
 * tables' foreign keys re-pointed at the backup and validated there; then the published table goes back to the shadow name, the backup becomes the live table under its original names, and
 * the lease fence and the rollback receipt are written last.
 *
 * <p>A publication group (issue 27, ADR 0041) runs the same steps for every member in one transaction, each step for
 * all members before the next: every member's checks (this campaign's first, so a driver meets its own refusal
 * before another's), attributes, other tables' keys re-pointed (keys between members' outgoing tables stay, so the
 * backups keep referencing each other), the keys between members' shadows validated, renames, and the other
 * members' receipts before this one's lease fence and receipt. Its rollback swaps every member back the same way.
 */
public final class SwapOrder {
    private SwapOrder() {
    }

    public static PublicationReceipt publish(SwapSteps steps, PublicationLedger ledger, CampaignLease lease, ArtifactNames names, String liveTable,
                                             long rows, LiveTargetBaseline baseline, TableFingerprint published,
                                             FaultPoints faults) throws SQLException {
        Optional<PublicationReceipt> existing = ledger.publicationReceipt(lease.runKey());
        if (existing.isPresent()) {
            return existing.get();
        }
        ledger.requireLease(lease);
        requireSwappable(steps, lease.runKey(), names, liveTable, baseline);
        steps.carryAttributes(liveTable, names.shadowTable());
        // Other tables' keys must check against the table that is live after the swap, not the backup.
        steps.repointInboundReferences(liveTable, names.shadowTable(), Set.of());
        swapNames(steps, names, liveTable, lease.runKey());
        PublicationReceipt receipt = ledger.insertPublication(lease, names, liveTable, rows, published);
        // Swap and receipt done, commit not run: a crash here must leave the old table live.
        faults.reached(FaultPoint.IN_PUBLISH, -1);
        return receipt;
    }

    /**
     * Every member of {@code group} swapped in this one transaction, this campaign's receipt returned; a replay with
     * the receipt present returns it. Throws {@link GroupHeldException} when another member is not ready under the
     * locks or its part would be refused; this member's own refusals are thrown as in {@link #publish}.
     */
    public static PublicationReceipt publishGroup(SwapSteps steps, PublicationLedger ledger, CampaignLease lease,
                                                  PublicationGroup group, FaultPoints faults) throws SQLException {
        Optional<PublicationReceipt> existing = ledger.publicationReceipt(lease.runKey());
        if (existing.isPresent()) {
            return existing.get();
        }
        ledger.requireLease(lease);
        GroupStanding standing = GroupStanding.of(group, ledger.groupMembers(group.name()));
        if (!standing.complete()) {
            throw new GroupHeldException(null, standing.describe(), null);
        }
        String self = lease.runKey();
        List<GroupMember> members = standing.swapOrder(self);
        Set<String> outgoing = new TreeSet<>();
        for (GroupMember m : members) {
            outgoing.add(m.liveTable());
            if (!m.runKey().equals(self) && ledger.publicationReceipt(m.runKey()).isPresent()) {
                throw new IllegalStateException("group " + group.name() + ": member " + m.liveTable() + " (run key "
                        + m.runKey() + ") has a publication receipt already, so the group cannot swap as one;"
                        + " nothing was changed");
            }
        }
        for (GroupMember m : members) {
            member(m, self, () -> requireSwappable(steps, m.runKey(), m.names(), m.liveTable(),
                    LiveTargetBaseline.parse(m.readiness().liveBaseline())));
        }
        for (GroupMember m : members) {
            member(m, self, () -> steps.carryAttributes(m.liveTable(), m.names().shadowTable()));
        }
        for (GroupMember m : members) {
            Set<String> others = new TreeSet<>(outgoing);
            others.remove(m.liveTable());
            member(m, self, () -> steps.repointInboundReferences(m.liveTable(), m.names().shadowTable(), others));
        }
        java.util.Map<String, String> incomingOf = new java.util.TreeMap<>();
        for (GroupMember m : members) {
            incomingOf.put(m.liveTable(), m.names().shadowTable());
        }
        for (GroupMember m : members) {
            member(m, self, () -> steps.validateDeferredKeys(m.liveTable(), m.names().shadowTable(),
                    n -> CarriedObjectNames.onShadow(m.names(), n), incomingOf));
        }
        for (GroupMember m : members) {
            swapNames(steps, m.names(), m.liveTable(), m.runKey());
        }
        GroupMember own = members.get(0);
        for (GroupMember m : members.subList(1, members.size())) {
            ledger.insertMemberPublication(m.runKey(), m.names(), m.liveTable(), m.readiness().rows(),
                    TableFingerprint.decode(m.readiness().publishedFingerprint()));
        }
        PublicationReceipt receipt = ledger.insertPublication(lease, own.names(), own.liveTable(), own.readiness().rows(),
                TableFingerprint.decode(own.readiness().publishedFingerprint()));
        faults.reached(FaultPoint.IN_PUBLISH, -1);
        return receipt;
    }

    /** The checks before any change: live table, baseline, shadow of this run, backup name free, carries complete. */
    private static void requireSwappable(SwapSteps steps, String runKey, ArtifactNames names, String liveTable,
                                         LiveTargetBaseline baseline) throws SQLException {
        String schema = names.schema();
        String shadow = names.shadowTable();
        String backup = names.backupTable();
        if (!steps.isTable(liveTable)) {
            throw new IllegalStateException("live target table " + schema + "." + liveTable + " does not exist; nothing was changed");
        }
        if (baseline == null) {
            throw LiveTargetChangedException.shapeChanged("no live target baseline was recorded at preparation, so writes"
                    + " to " + schema + "." + liveTable + " cannot be ruled out; nothing was changed");
        }
        requireUnchanged(steps, schema, liveTable, baseline);
        if (!steps.exists(shadow)) {
            throw new ArtifactOwnershipException("shadow " + schema + "." + shadow + " does not exist: nothing to publish"
                    + " for run key " + runKey + "; nothing was changed");
        }
        steps.requireShadowOwned(shadow, runKey);
        steps.lockExclusive(shadow);
        if (steps.exists(backup)) {
            throw new ArtifactOwnershipException("backup name " + schema + "." + backup + " is taken ("
                    + steps.describeOwner(backup) + "): the live table cannot be kept as the backup; nothing was"
                    + " changed. Rename or drop that table after review");
        }
        List<String> missing = steps.planCarries(liveTable, shadow, n -> CarriedObjectNames.onShadow(names, n));
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the shadow lacks the live table's " + missing + ": build the deferred"
                    + " indexes before publishing" + steps.notRebuilt() + "; nothing was changed");
        }
    }

    /** Live to backup, shadow to live, names carried, stamps. */
    private static void swapNames(SwapSteps steps, ArtifactNames names, String liveTable, String runKey) throws SQLException {
        steps.renameTable(liveTable, names.backupTable());
        steps.renameTable(names.shadowTable(), liveTable);
        steps.carryNames(names.backupTable(), liveTable, n -> CarriedObjectNames.onBackup(names, n));
        steps.stampPublished(liveTable, names.backupTable(), runKey);
    }

    @FunctionalInterface
    private interface MemberStep {
        void run() throws SQLException;
    }

    /** Runs a member's step; another member's refusal holds this one instead of blocking it. */
    private static void member(GroupMember m, String self, MemberStep step) throws SQLException {
        try {
            step.run();
        } catch (RuntimeException e) {
            if (m.runKey().equals(self)) {
                throw e;
            }
            throw new GroupHeldException(m.liveTable(), "group member " + m.schema() + "." + m.liveTable()
                    + " holds the group's swap: " + e.getMessage(), e);
        }
    }

    public static RollbackReceipt rollback(SwapSteps steps, PublicationLedger ledger, CampaignLease lease, ArtifactNames names, String liveTable,
                                           String reason, boolean acceptWrites) throws SQLException {
        Optional<RollbackReceipt> existing = ledger.rollbackReceipt(lease.runKey());
        if (existing.isPresent()) {
            Optional<String> group = ledger.groupOf(lease.runKey());
            return group.isPresent() ? existing.get().withGroupTables(otherMembers(ledger, group.get(), lease.runKey()))
                    : existing.get();
        }
        ledger.requireLease(lease);
        Optional<String> group = ledger.groupOf(lease.runKey());
        if (group.isPresent()) {
            return rollbackGroup(steps, ledger, lease, group.get(), reason, acceptWrites)
                    .withGroupTables(otherMembers(ledger, group.get(), lease.runKey()));
        }
        PublicationReceipt publication = ledger.publicationReceipt(lease.runKey()).orElseThrow(() -> new IllegalStateException(
                "run key " + lease.runKey() + " has no publication receipt: there is nothing to roll back"));
        requireSameTables(publication, names, liveTable);
        String accepted = requireRollbackable(steps, ledger, lease.runKey(), names, liveTable, acceptWrites);
        steps.handBack(liveTable, names.backupTable());
        steps.repointInboundReferences(liveTable, names.backupTable(), Set.of());
        swapBack(steps, names, liveTable, lease.runKey());
        return ledger.insertRollback(lease, reason, accepted);
    }

    /** The other members' tables of {@code group}, as {@code schema.table}, by name. */
    private static List<String> otherMembers(PublicationLedger ledger, String group, String self) throws SQLException {
        return ledger.groupMembers(group).stream().filter(m -> !m.runKey().equals(self))
                .map(m -> m.schema() + "." + m.liveTable()).sorted().toList();
    }

    /**
     * Every member of the group swapped back in one transaction: each must have its publication receipt and no
     * rollback receipt, carry this group's stamps, and (unless {@code acceptWrites}) be unchanged since publication.
     */
    private static RollbackReceipt rollbackGroup(SwapSteps steps, PublicationLedger ledger, CampaignLease lease,
                                                 String group, String reason, boolean acceptWrites) throws SQLException {
        String self = lease.runKey();
        List<GroupMember> members = new ArrayList<>(ledger.groupMembers(group));
        members.sort(java.util.Comparator.comparing((GroupMember m) -> !m.runKey().equals(self)).thenComparing(GroupMember::liveTable));
        if (members.isEmpty() || !members.get(0).runKey().equals(self)) {
            throw new IllegalStateException("run key " + self + " is not a member of group " + group + " in the ledger;"
                    + " nothing was changed");
        }
        Map<String, String> accepted = new LinkedHashMap<>();
        Map<String, ArtifactNames> namesOf = new LinkedHashMap<>();
        Set<String> published = new TreeSet<>();
        for (GroupMember m : members) {
            String who = "group " + group + ", member " + m.schema() + "." + m.liveTable() + ": ";
            if (!m.runKey().equals(self) && ledger.rollbackReceipt(m.runKey()).isPresent()) {
                throw new IllegalStateException(who + "it was rolled back already (run key " + m.runKey()
                        + "), so the group cannot roll back as one; nothing was changed");
            }
            PublicationReceipt publication = ledger.publicationReceipt(m.runKey()).orElseThrow(() -> new IllegalStateException(
                    who + "run key " + m.runKey() + " has no publication receipt: the group was not published; nothing was changed"));
            ArtifactNames names = new ArtifactNames(publication.schema(), publication.shadowTable(), publication.backupTable());
            requireSameTables(publication, names, m.liveTable());
            accepted.put(m.runKey(), requireRollbackable(steps, ledger, m.runKey(), names, m.liveTable(), acceptWrites));
            namesOf.put(m.runKey(), names);
            published.add(m.liveTable());
        }
        for (GroupMember m : members) {
            steps.handBack(m.liveTable(), namesOf.get(m.runKey()).backupTable());
        }
        for (GroupMember m : members) {
            Set<String> others = new TreeSet<>(published);
            others.remove(m.liveTable());
            steps.repointInboundReferences(m.liveTable(), namesOf.get(m.runKey()).backupTable(), others);
        }
        for (GroupMember m : members) {
            swapBack(steps, namesOf.get(m.runKey()), m.liveTable(), m.runKey());
        }
        for (GroupMember m : members.subList(1, members.size())) {
            ledger.insertMemberRollback(m.runKey(), reason, accepted.get(m.runKey()));
        }
        return ledger.insertRollback(lease, reason, accepted.get(self));
    }

    /**
     * The checks of a rollback before any change, for one published table: this run's stamps on the live table and
     * the backup, its writers blocked and its content compared with the receipt's (the accepted difference returned,
     * null when none), the shadow name free, the backup locked and its carries planned.
     */
    private static String requireRollbackable(SwapSteps steps, PublicationLedger ledger, String runKey, ArtifactNames names,
                                              String liveTable, boolean acceptWrites) throws SQLException {
        String schema = names.schema();
        String shadow = names.shadowTable();
        String backup = names.backupTable();
        requireStamped(steps, schema, liveTable, SwapStamp.PUBLISHED, runKey, "live table");
        requireStamped(steps, schema, backup, SwapStamp.BACKUP, runKey, "backup");
        steps.blockWriters(liveTable);
        TableFingerprint atPublication = ledger.publishedFingerprint(runKey);
        TableFingerprint now = steps.fingerprintComparableWith(liveTable, atPublication);
        String accepted = PublishedTableWrittenException.writesSincePublication(names, liveTable, atPublication, now, acceptWrites);
        if (steps.exists(shadow)) {
            throw new ArtifactOwnershipException("shadow name " + schema + "." + shadow + " is taken ("
                    + steps.describeOwner(shadow) + "): the published table cannot move there; nothing was changed");
        }
        steps.lockExclusive(backup);
        steps.planCarries(liveTable, backup, n -> CarriedObjectNames.onBackup(names, n));
        return accepted;
    }

    /** Published table to the shadow name, backup to live, names carried, stamps. */
    private static void swapBack(SwapSteps steps, ArtifactNames names, String liveTable, String runKey) throws SQLException {
        steps.renameTable(liveTable, names.shadowTable());
        steps.renameTable(names.backupTable(), liveTable);
        steps.carryNames(names.shadowTable(), liveTable, n -> CarriedObjectNames.onShadow(names, n));
        steps.stampRolledBack(liveTable, names.shadowTable(), runKey);
    }

    /**
     * Blocks writers of the live table, then compares its shape and content with what preparation recorded. Every
     * write committed before the block is visible to the comparison, so none can slip between the check and the
     * rename.
     */
    static void requireUnchanged(SwapSteps steps, String schema, String liveTable, LiveTargetBaseline baseline)
            throws SQLException {
        String name = schema + "." + liveTable;
        steps.blockWriters(liveTable);
        String change = TableShapeDiff.describe("live target " + name, baseline.shape(), steps.liveShape(liveTable));
        if (change != null) {
            throw LiveTargetChangedException.shapeChanged(change + ": the published table would not carry it; nothing was changed");
        }
        TableFingerprint now = steps.fingerprint(liveTable);
        if (!now.equals(baseline.content())) {
            throw LiveTargetChangedException.written("live target " + name + " was written after preparation ("
                    + now.changeSince(baseline.content()) + "): a swap would hide those writes in the backup; nothing"
                    + " was changed");
        }
    }

    private static void requireStamped(SwapSteps steps, String schema, String table, SwapStamp stamp, String runKey,
                                       String role) throws SQLException {
        if (!steps.isTable(table)) {
            throw new ArtifactOwnershipException(role + " " + schema + "." + table
                    + " does not exist: cannot roll back; nothing was changed");
        }
        if (!steps.carries(table, stamp, runKey)) {
            throw new ArtifactOwnershipException(role + " " + schema + "." + table + " does not carry '"
                    + steps.stampText(stamp, runKey) + "' (found " + steps.describeOwner(table) + "): cannot roll back;"
                    + " nothing was changed");
        }
    }

    private static void requireSameTables(PublicationReceipt publication, ArtifactNames names, String liveTable) {
        if (!publication.schema().equals(names.schema()) || !publication.liveTable().equals(liveTable)
                || !publication.backupTable().equals(names.backupTable())
                || !publication.shadowTable().equals(names.shadowTable())) {
            throw new ArtifactOwnershipException("the publication receipt of run key " + publication.runKey()
                    + " names " + publication.schema() + "." + publication.liveTable() + " / " + publication.backupTable()
                    + " / " + publication.shadowTable() + ", not these tables: cannot roll back; nothing was changed");
        }
    }
}
