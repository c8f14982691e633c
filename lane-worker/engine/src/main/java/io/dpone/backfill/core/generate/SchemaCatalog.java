package io.dpone.backfill.core.generate;

import io.dpone.backfill.core.campaign.IdentifierComparison;

import java.util.List;

/** What {@code backfill generate} reads of a target schema: its plain tables and the foreign keys among them. */
public interface SchemaCatalog {
    /** The schema's plain (user) tables, by name. */
    List<String> tables(String schema);

    /** Every foreign key between tables of {@code schema}, self-references included. */
    List<TableReference> references(String schema);

    /** How this database compares the names it lists (issue 36): tables pair as the target resolves names. */
    IdentifierComparison names();
}
