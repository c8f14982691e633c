package io.dpone.backfill.core.doctor;

import java.util.List;

/**
 * What {@code doctor} says about the live table's foreign keys, the same words and codes on every target (ADR 0038,
 * 0049): each target's doctor reads its own catalog and rows, and reports through these.
 */
public final class ForeignKeyFindings {
    /** How many missing values a finding shows. */
    public static final int SHOWN = 5;

    private ForeignKeyFindings() {
    }

    /** An outbound key to a table empty on the target while source rows reference it: the check after loading blocks. */
    public static Finding referencedEmpty(String key, String referenced) {
        return Finding.error("target.foreign-key.referenced-empty", "foreign key " + key + ": " + referenced
                + " is empty on the target while source rows reference it, so the key would not hold on the loaded rows"
                + " and the check before publication would block (ForeignKeyOrphans)",
                "Load " + referenced + " first (its own campaign, published), then this table.");
    }

    /** An outbound key (one to the table itself included), created on the shadow after loading and checked there. */
    public static Finding checkedAfterLoad(String key) {
        return Finding.ok("target.foreign-key.validated-after-load", "foreign key " + key + " is not enforced while"
                + " chunks load; it is created on the shadow after loading and checked there before publication, which"
                + " blocks (ForeignKeyOrphans) with the count and a sample of rows that reference missing keys");
    }

    /** A key between two members of the campaign's publication group: checked by the group's swap. */
    public static Finding groupMember(String key) {
        return Finding.warning("target.foreign-key.group-member", "foreign key " + key + " is between members of the"
                + " campaign's publication group: it cannot be probed before both are loaded; the group's swap points it"
                + " at the members' loaded tables and checks it there, before any of them is published", "If rows break"
                + " it, the member they belong to blocks (ForeignKeyOrphans, with their count and a sample) and nothing"
                + " of the group is published.");
    }

    /** An inbound key whose referenced columns no source column loads: every referencing row would break it. */
    public static Finding referencedColumnsNotLoaded(String subject, List<String> referencedColumns, String referencing) {
        return Finding.error("target.foreign-key.referenced-key-missing", subject + ", but no source column loads its"
                + " column(s) " + String.join(", ", referencedColumns) + ": re-pointed at the published table, every row"
                + " of " + referencing + " that references it would break it",
                "Load the referenced columns, or empty " + referencing + " for the campaign.");
    }

    /** An inbound key with too many distinct values to probe: left to the swap. */
    public static Finding tooManyToProbe(String subject, int limit, String referencing) {
        return Finding.warning("target.binding.inbound-foreign-key", subject + " with more than " + limit
                + " distinct values: the swap re-points it at the published table and checks it there, not probed here",
                leftToTheSwap(referencing));
    }

    /** An inbound key whose referencing rows hold values the source table lacks: publication would block. */
    public static Finding valuesMissingInSource(String subject, List<String> missing, int distinct, String sourceTable,
                                                String referencing) {
        return Finding.error("target.foreign-key.referenced-key-missing", subject + ": " + missing.size() + " of its "
                + distinct + " distinct values are not in the source table " + sourceTable + " (e.g. "
                + String.join(", ", missing.subList(0, Math.min(SHOWN, missing.size()))) + "), so re-pointed at the"
                + " published table it would not hold and publication would block",
                "Delete or fix those rows of " + referencing + ", or load the rows they reference into the source.");
    }

    /** An inbound key whose every referencing value is in the source table. */
    public static Finding allValuesInSource(String subject, int distinct) {
        return Finding.ok("target.binding.inbound-foreign-key", subject + ": the swap re-points it at the published"
                + " table and checks it there (a rollback points it back); its " + distinct + " distinct values are all"
                + " in the source table");
    }

    /** What happens to an inbound key doctor did not probe. */
    public static String leftToTheSwap(String referencing) {
        return "Publication blocks (ForeignKeyOrphans) and swaps nothing if rows of " + referencing
                + " reference keys the source lacks.";
    }
}
