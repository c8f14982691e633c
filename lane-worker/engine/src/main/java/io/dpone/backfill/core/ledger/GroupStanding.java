package io.dpone.backfill.core.ledger;

import io.dpone.backfill.core.campaign.PublicationGroup;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a publication group stands, from one member's point of view (issue 27): which member tables still hold the
 * swap and why (no campaign applied for it yet, its phase, or terms that disagree with this member's). The swap
 * runs only when nothing holds it.
 */
public final class GroupStanding {
    private final PublicationGroup group;
    private final Map<String, GroupMember> byTable = new TreeMap<>();
    private final List<String> holding = new ArrayList<>();

    private GroupStanding(PublicationGroup group, List<GroupMember> members) {
        this.group = group;
        for (GroupMember m : members) {
            GroupMember earlier = byTable.put(m.liveTable(), m);
            if (earlier != null) {
                holding.add(m.liveTable() + " (two campaigns of the group load it: run keys " + earlier.runKey()
                        + " and " + m.runKey() + ")");
            }
        }
        for (String table : group.members()) {
            GroupMember m = byTable.get(table);
            if (m == null) {
                holding.add(table + " (no campaign of the group for it yet)");
            } else if (!m.termsDigest().equals(group.termsDigest())) {
                holding.add(table + " (its campaign lists other members, schema, approval or window: every member"
                        + " must list the same group)");
            } else if (!m.ready()) {
                holding.add(table + " (" + m.phase() + ")");
            }
        }
        for (GroupMember m : members) {
            if (!group.members().contains(m.liveTable())) {
                holding.add(m.liveTable() + " (its campaign names group " + group.name() + " but is not one of its members)");
            }
        }
    }

    public static GroupStanding of(PublicationGroup group, List<GroupMember> members) {
        return new GroupStanding(group, members);
    }

    /** True when every member table has one campaign, on the same terms, validated and ready to swap. */
    public boolean complete() {
        return holding.isEmpty();
    }

    /** The member tables that hold the swap, each with why. */
    public List<String> holding() {
        return List.copyOf(holding);
    }

    /** The ready members, {@code first} (this campaign's run key) first, then by table: the order of the swap. */
    public List<GroupMember> swapOrder(String first) {
        List<GroupMember> ordered = new ArrayList<>(byTable.values());
        ordered.sort(Comparator.comparing((GroupMember m) -> !m.runKey().equals(first)).thenComparing(GroupMember::liveTable));
        return ordered;
    }

    public String describe() {
        return "publication group " + group.name() + ": " + (byTable.size() - countNotReady()) + " of "
                + group.members().size() + " members ready" + (holding.isEmpty() ? "" : "; waiting for " + String.join(", ", holding));
    }

    private long countNotReady() {
        return byTable.values().stream().filter(m -> !m.ready()).count();
    }
}
