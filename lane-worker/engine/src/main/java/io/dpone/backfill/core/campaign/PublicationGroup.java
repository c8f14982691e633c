package io.dpone.backfill.core.campaign;

import io.dpone.backfill.core.digest.CanonicalJson;
import io.dpone.backfill.core.digest.Sha256;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A campaign's publication group as the engine and the swap use it (issue 27, ADR 0041): its name, its member tables
 * in the target schema, and the digest of the terms every member must share: the members, the schema, the approval
 * mode and the publication window. Members that disagree on them never swap together.
 */
public record PublicationGroup(String name, String schema, List<String> members, String termsDigest) {

    /** The group of a normalised spec, when it names one. */
    public static Optional<PublicationGroup> of(BackfillCampaignSpec spec) {
        PublicationGroupSpec group = spec.getPublication() == null ? null : spec.getPublication().getGroup();
        if (group == null) {
            return Optional.empty();
        }
        List<String> members = List.copyOf(new TreeSet<>(group.getMembers()));
        String schema = spec.getTarget().getSchema();
        Map<String, Object> terms = new LinkedHashMap<>();
        terms.put("name", group.getName());
        terms.put("schema", schema);
        terms.put("members", members);
        terms.put("approval", spec.getPublication().approvalMode().toString());
        terms.put("window", spec.getPublication().getWindow());
        return Optional.of(new PublicationGroup(group.getName(), schema, members,
                Sha256.hex(CanonicalJson.write(terms)).substring(0, 16)));
    }

    /** The member tables other than {@code table}: the ones its keys to are validated at the group's swap. */
    public Set<String> othersThan(String table) {
        Set<String> others = new TreeSet<>(members);
        others.remove(table);
        return others;
    }

    public String describe() {
        return name + " (" + members.size() + " tables: " + String.join(", ", members) + ")";
    }
}
