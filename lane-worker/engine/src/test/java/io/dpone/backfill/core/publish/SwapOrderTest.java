package io.dpone.backfill.core.publish;

import io.dpone.backfill.core.campaign.PublicationGroup;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.GroupMember;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.PublicationReceipt;
import io.dpone.backfill.core.ledger.RollbackReceipt;
import io.dpone.backfill.core.naming.ArtifactNames;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The one order of a publication and of its rollback (ADR 0035), on steps that record what they are asked. The real
 * steps are held to the same outcomes by the targets' publication and rollback suites (ShadowPublisherContract).
 */
class SwapOrderTest {
    private static final CampaignLease LEASE = new CampaignLease("rk1", "driver-a", 1);
    private static final ArtifactNames NAMES = new ArtifactNames("app", "orders__shadow", "orders__backup");
    private static final TableShape SHAPE = new TableShape(List.of(), List.of());
    private static final TableFingerprint CONTENT = new TableFingerprint(10, "abc");

    private final Steps steps = new Steps();

    @Test
    void aPublicationChecksEverythingBeforeItRenamesAndWritesItsReceiptLast() throws Exception {
        PublicationReceipt receipt = SwapOrder.publish(steps, steps, LEASE, NAMES, "orders", 10, baseline(CONTENT), CONTENT,
                FaultPoints.NONE);

        assertThat(receipt.runKey()).isEqualTo("rk1");
        assertThat(steps.calls).containsExactly("publicationReceipt", "requireLease", "isTable orders",
                "blockWriters orders", "liveShape orders", "fingerprint orders", "exists orders__shadow",
                "requireShadowOwned orders__shadow", "lockExclusive orders__shadow", "exists orders__backup",
                "planCarries orders->orders__shadow", "carryAttributes orders->orders__shadow",
                "repointInboundReferences orders->orders__shadow", "rename orders->orders__backup", "rename orders__shadow->orders", "carryNames orders__backup->orders",
                "stampPublished orders/orders__backup", "insertPublication");
    }

    @Test
    void aReplayedPublicationReturnsItsReceiptAndTouchesNothing() throws Exception {
        steps.publication = receipt();

        assertThat(SwapOrder.publish(steps, steps, LEASE, NAMES, "orders", 10, baseline(CONTENT), CONTENT, FaultPoints.NONE))
                .isSameAs(steps.publication);
        assertThat(steps.calls).containsExactly("publicationReceipt");
    }

    @Test
    void aLiveTableWrittenSincePreparationBlocksThePublicationBeforeAnyChange() {
        steps.liveContent = new TableFingerprint(11, "changed");

        assertThatThrownBy(() -> SwapOrder.publish(steps, steps, LEASE, NAMES, "orders", 10, baseline(CONTENT), CONTENT,
                FaultPoints.NONE)).isInstanceOf(LiveTargetChangedException.class)
                .hasMessageContaining("was written after preparation").hasMessageContaining("nothing was changed");
        assertThat(steps.changed()).isFalse();
    }

    @Test
    void aPublicationWithoutABaselineIsRefusedBeforeAnyChange() {
        assertThatThrownBy(() -> SwapOrder.publish(steps, steps, LEASE, NAMES, "orders", 10, null, CONTENT, FaultPoints.NONE))
                .isInstanceOf(LiveTargetChangedException.class).hasMessageContaining("no live target baseline");
        assertThat(steps.changed()).isFalse();
    }

    @Test
    void aTakenBackupNameOrAMissingIndexRefusesThePublicationBeforeAnyChange() {
        steps.existing.put("orders__backup", "someone else");
        assertThatThrownBy(() -> SwapOrder.publish(steps, steps, LEASE, NAMES, "orders", 10, baseline(CONTENT), CONTENT,
                FaultPoints.NONE)).isInstanceOf(ArtifactOwnershipException.class)
                .hasMessageContaining("backup name app.orders__backup is taken (someone else)");
        assertThat(steps.changed()).isFalse();

        steps.existing.remove("orders__backup");
        steps.unmatched = List.of("index orders_pkey");
        assertThatThrownBy(() -> SwapOrder.publish(steps, steps, LEASE, NAMES, "orders", 10, baseline(CONTENT), CONTENT,
                FaultPoints.NONE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the shadow lacks the live table's [index orders_pkey]");
        assertThat(steps.changed()).isFalse();
    }

    @Test
    void aRollbackChecksStampsAndWritesBeforeItRenamesAndWritesItsReceiptLast() throws Exception {
        steps.publication = receipt();
        steps.existing.remove("orders__shadow");
        steps.existing.put("orders__backup", "backup");
        steps.stamps.put("orders", SwapStamp.PUBLISHED);
        steps.stamps.put("orders__backup", SwapStamp.BACKUP);

        RollbackReceipt receipt = SwapOrder.rollback(steps, steps, LEASE, NAMES, "orders", "wrong data", false);

        assertThat(receipt.reason()).isEqualTo("wrong data");
        assertThat(steps.calls).containsExactly("rollbackReceipt", "requireLease", "groupOf", "publicationReceipt",
                "isTable orders", "carries orders PUBLISHED", "isTable orders__backup", "carries orders__backup BACKUP",
                "blockWriters orders", "publishedFingerprint", "fingerprint orders", "exists orders__shadow",
                "lockExclusive orders__backup", "planCarries orders->orders__backup", "handBack orders->orders__backup",
                "repointInboundReferences orders->orders__backup", "rename orders->orders__shadow", "rename orders__backup->orders", "carryNames orders__shadow->orders",
                "stampRolledBack orders/orders__shadow", "insertRollback");
    }

    @Test
    void aRollbackOfATableThatIsNotThisRunsIsRefusedBeforeAnyChange() {
        steps.publication = receipt();
        steps.existing.put("orders__backup", "backup");
        steps.stamps.put("orders__backup", SwapStamp.BACKUP);

        assertThatThrownBy(() -> SwapOrder.rollback(steps, steps, LEASE, NAMES, "orders", "why", false))
                .isInstanceOf(ArtifactOwnershipException.class)
                .hasMessageContaining("live table app.orders does not carry 'published:rk1'");
        assertThat(steps.changed()).isFalse();
    }

    private static final PublicationGroup GROUP = new PublicationGroup("shop", "app", List.of("lines", "orders"), "terms1");

    private void twoReadyMembers() {
        steps.existing.putAll(Map.of("lines", "user", "lines__shadow", "shadow"));
        steps.group = "shop";
        steps.members = List.of(member("rk2", "lines"), member("rk1", "orders"));
    }

    private static GroupMember member(String runKey, String table) {
        return new GroupMember("shop", runKey, "terms1", "app", table, io.dpone.backfill.core.campaign.CampaignPhase.Publishing,
                new GroupMember.Readiness(table + "__shadow", table + "__backup", 10, baseline(CONTENT).json(), CONTENT.encoded()));
    }

    @Test
    void aGroupSwapChecksEveryMemberThisOneFirstThenRunsEachStepForAllAndWritesThisReceiptLast() throws Exception {
        twoReadyMembers();

        PublicationReceipt receipt = SwapOrder.publishGroup(steps, steps, LEASE, GROUP, FaultPoints.NONE);

        assertThat(receipt.runKey()).isEqualTo("rk1");
        assertThat(receipt.liveTable()).isEqualTo("orders");
        assertThat(steps.calls).containsSubsequence("requireLease", "groupMembers",
                "isTable orders", "planCarries orders->orders__shadow", "isTable lines", "planCarries lines->lines__shadow",
                "carryAttributes orders->orders__shadow", "carryAttributes lines->lines__shadow",
                // Keys between the members' outgoing tables stay: the backups keep referencing each other.
                "repointInboundReferences orders->orders__shadow kept [lines]",
                "repointInboundReferences lines->lines__shadow kept [orders]",
                "validateDeferredKeys orders->orders__shadow among {lines=lines__shadow, orders=orders__shadow}",
                "validateDeferredKeys lines->lines__shadow among {lines=lines__shadow, orders=orders__shadow}",
                "rename orders->orders__backup", "rename orders__shadow->orders",
                "rename lines->lines__backup", "rename lines__shadow->lines",
                "insertMemberPublication rk2", "insertPublication");
        assertThat(steps.calls.get(steps.calls.size() - 1)).isEqualTo("insertPublication");
    }

    @Test
    void anotherMembersWrittenLiveTableHoldsTheGroupWithoutBlockingThisMemberAndChangesNothing() {
        twoReadyMembers();
        steps.liveContents.put("lines", new TableFingerprint(11, "changed"));

        assertThatThrownBy(() -> SwapOrder.publishGroup(steps, steps, LEASE, GROUP, FaultPoints.NONE))
                .isInstanceOf(GroupHeldException.class)
                .hasMessageContaining("group member app.lines holds the group's swap")
                .hasMessageContaining("was written after preparation")
                .satisfies(e -> assertThat(((GroupHeldException) e).memberTable()).isEqualTo("lines"));
        assertThat(steps.changed()).isFalse();
    }

    @Test
    void thisMembersOwnWrittenLiveTableIsThisMembersRefusal() {
        twoReadyMembers();
        steps.liveContents.put("orders", new TableFingerprint(11, "changed"));

        assertThatThrownBy(() -> SwapOrder.publishGroup(steps, steps, LEASE, GROUP, FaultPoints.NONE))
                .isInstanceOf(LiveTargetChangedException.class).hasMessageContaining("app.orders was written");
        assertThat(steps.changed()).isFalse();
    }

    @Test
    void aGroupWithAMemberNotReadyUnderTheLocksIsHeldBeforeAnyChange() {
        twoReadyMembers();
        steps.members = List.of(new GroupMember("shop", "rk2", "terms1", "app", "lines",
                io.dpone.backfill.core.campaign.CampaignPhase.Loading, null), member("rk1", "orders"));

        assertThatThrownBy(() -> SwapOrder.publishGroup(steps, steps, LEASE, GROUP, FaultPoints.NONE))
                .isInstanceOf(GroupHeldException.class).hasMessageContaining("waiting for lines (Loading)");
        assertThat(steps.changed()).isFalse();
    }

    @Test
    void aGroupMembersRollbackSwapsEveryMemberBackAndWritesThisReceiptLast() throws Exception {
        twoReadyMembers();
        steps.publication = receipt();
        steps.existing.keySet().removeIf(t -> t.endsWith("__shadow"));
        steps.existing.putAll(Map.of("orders__backup", "backup", "lines__backup", "backup"));
        steps.stamps.putAll(Map.of("orders", SwapStamp.PUBLISHED, "orders__backup", SwapStamp.BACKUP,
                "lines", SwapStamp.PUBLISHED, "lines__backup", SwapStamp.BACKUP));
        // Both receipts name their own tables (the fake returns one receipt per call: give lines' its names).
        Steps perMember = new Steps() {
            @Override public Optional<PublicationReceipt> publicationReceipt(String runKey) {
                calls.add("publicationReceipt");
                String table = runKey.equals("rk1") ? "orders" : "lines";
                return Optional.of(new PublicationReceipt(runKey, "r", "app", table, table + "__backup", table + "__shadow", 10, Instant.EPOCH));
            }
        };
        perMember.existing.clear();
        perMember.existing.putAll(steps.existing);
        perMember.stamps.putAll(steps.stamps);
        perMember.group = "shop";
        perMember.members = steps.members;

        RollbackReceipt receipt = SwapOrder.rollback(perMember, perMember, LEASE, NAMES, "orders", "wrong data", false);

        assertThat(receipt.runKey()).isEqualTo("rk1");
        assertThat(perMember.calls).containsSubsequence("groupOf", "groupMembers",
                "carries orders PUBLISHED", "carries lines PUBLISHED",
                "handBack orders->orders__backup", "handBack lines->lines__backup",
                "repointInboundReferences orders->orders__backup kept [lines]",
                "repointInboundReferences lines->lines__backup kept [orders]",
                "rename orders->orders__shadow", "rename orders__backup->orders",
                "rename lines->lines__shadow", "rename lines__backup->lines",
                "insertMemberRollback rk2", "insertRollback");
    }

    private static LiveTargetBaseline baseline(TableFingerprint content) {
        return new LiveTargetBaseline(SHAPE, content.encoded());
    }

    private static PublicationReceipt receipt() {
        return new PublicationReceipt("rk1", "r1", "app", "orders", "orders__backup", "orders__shadow", 10, Instant.EPOCH);
    }

    /** Records every step; changes nothing but its own list. */
    private static class Steps implements SwapSteps, PublicationLedger {
        final List<String> calls = new ArrayList<>();
        final Map<String, String> existing = new HashMap<>(Map.of("orders", "user", "orders__shadow", "shadow"));
        final Map<String, SwapStamp> stamps = new HashMap<>();
        PublicationReceipt publication;
        TableFingerprint liveContent = CONTENT;
        final Map<String, TableFingerprint> liveContents = new HashMap<>();
        String group;
        List<GroupMember> members = List.of();
        List<String> unmatched = List.of();

        boolean changed() {
            return calls.stream().anyMatch(c -> c.startsWith("rename") || c.startsWith("carryAttributes")
                    || c.startsWith("stamp") || c.startsWith("insert") || c.startsWith("handBack")
                    || c.startsWith("repoint"));
        }

        @Override public Optional<PublicationReceipt> publicationReceipt(String runKey) { calls.add("publicationReceipt"); return Optional.ofNullable(publication); }
        @Override public Optional<RollbackReceipt> rollbackReceipt(String runKey) { calls.add("rollbackReceipt"); return Optional.empty(); }
        @Override public void requireLease(CampaignLease lease) { calls.add("requireLease"); }
        @Override public TableFingerprint publishedFingerprint(String runKey) { calls.add("publishedFingerprint"); return CONTENT; }
        @Override public PublicationReceipt insertPublication(CampaignLease lease, ArtifactNames names, String liveTable, long rows, TableFingerprint published) {
            calls.add("insertPublication");
            return new PublicationReceipt(lease.runKey(), "r1", names.schema(), liveTable, names.backupTable(), names.shadowTable(), rows, Instant.EPOCH);
        }
        @Override public RollbackReceipt insertRollback(CampaignLease lease, String reason, String acceptedWrites) {
            calls.add("insertRollback");
            return new RollbackReceipt(lease.runKey(), "b1", reason, Instant.EPOCH, acceptedWrites);
        }
        @Override public boolean isTable(String table) { calls.add("isTable " + table); return existing.containsKey(table); }
        @Override public boolean exists(String table) { calls.add("exists " + table); return existing.containsKey(table); }
        @Override public String describeOwner(String table) { return existing.get(table); }
        @Override public String stampText(SwapStamp stamp, String runKey) { return stamp.name().toLowerCase() + ":" + runKey; }
        @Override public boolean carries(String table, SwapStamp stamp, String runKey) { calls.add("carries " + table + " " + stamp); return stamps.get(table) == stamp; }
        @Override public void requireShadowOwned(String shadow, String runKey) { calls.add("requireShadowOwned " + shadow); }
        @Override public void blockWriters(String table) { calls.add("blockWriters " + table); }
        @Override public TableShape liveShape(String table) { calls.add("liveShape " + table); return SHAPE; }
        @Override public TableFingerprint fingerprint(String table) { calls.add("fingerprint " + table); return liveContents.getOrDefault(table, liveContent); }
        @Override public TableFingerprint fingerprintComparableWith(String table, TableFingerprint reference) { return fingerprint(table); }
        @Override public void lockExclusive(String table) { calls.add("lockExclusive " + table); }
        @Override public List<String> planCarries(String outgoing, String incoming, UnaryOperator<String> incomingNameOf) { calls.add("planCarries " + outgoing + "->" + incoming); return unmatched; }
        @Override public String notRebuilt() { return ""; }
        @Override public void carryAttributes(String live, String shadow) { calls.add("carryAttributes " + live + "->" + shadow); }
        @Override public void handBack(String published, String backup) { calls.add("handBack " + published + "->" + backup); }
        @Override public void repointInboundReferences(String outgoing, String incoming, java.util.Set<String> kept) {
            calls.add("repointInboundReferences " + outgoing + "->" + incoming + (kept.isEmpty() ? "" : " kept " + kept));
        }
        @Override public void validateDeferredKeys(String outgoing, String incoming, UnaryOperator<String> incomingNameOf, java.util.Map<String, String> incomingOf) { calls.add("validateDeferredKeys " + outgoing + "->" + incoming + (incomingOf.size() > 1 ? " among " + incomingOf : "")); }
        @Override public Optional<String> groupOf(String runKey) { calls.add("groupOf"); return Optional.ofNullable(group); }
        @Override public List<GroupMember> groupMembers(String name) { calls.add("groupMembers"); return members; }
        @Override public PublicationReceipt insertMemberPublication(String runKey, ArtifactNames names, String liveTable, long rows, TableFingerprint published) {
            calls.add("insertMemberPublication " + runKey);
            return new PublicationReceipt(runKey, "r-" + runKey, names.schema(), liveTable, names.backupTable(), names.shadowTable(), rows, Instant.EPOCH);
        }
        @Override public RollbackReceipt insertMemberRollback(String runKey, String reason, String acceptedWrites) {
            calls.add("insertMemberRollback " + runKey);
            return new RollbackReceipt(runKey, "b-" + runKey, reason, Instant.EPOCH, acceptedWrites);
        }
        @Override public void renameTable(String from, String to) { calls.add("rename " + from + "->" + to); }
        @Override public void carryNames(String outgoing, String incoming, UnaryOperator<String> renamed) { calls.add("carryNames " + outgoing + "->" + incoming); }
        @Override public void stampPublished(String live, String backup, String runKey) { calls.add("stampPublished " + live + "/" + backup); }
        @Override public void stampRolledBack(String live, String shadow, String runKey) { calls.add("stampRolledBack " + live + "/" + shadow); }
    }
}
