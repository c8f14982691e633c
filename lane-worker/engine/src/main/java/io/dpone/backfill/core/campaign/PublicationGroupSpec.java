package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.dpone.backfill.core.campaign.rule.Pattern;
import io.dpone.backfill.core.campaign.rule.Required;
import io.dpone.backfill.core.campaign.rule.Size;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Campaigns that publish together (issue 27): every member names the same group and the same member tables, and no
 * member swaps until all have validated; then one transaction swaps them all, and a rollback of one rolls back all.
 */
public class PublicationGroupSpec {
    /** A DNS label: it names the group in the ledger, in events and in a printer column. */
    public static final String NAME_PATTERN = "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$";
    public static final int MAX_MEMBERS = 100;

    @JsonPropertyDescription("The group's name (a DNS label, e.g. music-store): the same in every member.")
    @Required
    @Pattern(NAME_PATTERN)
    private String name;
    @JsonPropertyDescription("The live target tables of every member campaign, this one's included, all in the same"
            + " target schema; the same list in every member (order does not matter).")
    @Required
    @Size(min = 2, max = MAX_MEMBERS)
    private List<String> members;

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public List<String> getMembers() {
        return members;
    }

    public void setMembers(List<String> members) {
        this.members = members;
    }

    PublicationGroupSpec copy() {
        PublicationGroupSpec c = new PublicationGroupSpec();
        c.name = name;
        c.members = members == null ? null : new ArrayList<>(members);
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PublicationGroupSpec g && Objects.equals(name, g.name) && Objects.equals(members, g.members);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, members);
    }
}
