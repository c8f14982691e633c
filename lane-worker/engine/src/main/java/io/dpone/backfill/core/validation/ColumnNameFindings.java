package io.dpone.backfill.core.validation;

import io.dpone.backfill.core.campaign.IdentifierLimit;
import io.dpone.backfill.core.doctor.Finding;

import java.util.List;
import java.util.Optional;

/**
 * The columns of a table a campaign names must pass the same identifier rules as the names its author writes: the
 * table is not the manifest, but its column names reach the same SQL. A column the rules refuse (a quote, a bracket,
 * a control character) is an ERROR before any side effect, naming the column, where otherwise every lane would fail
 * on it until the chunks' attempts were spent (issue 39).
 */
public final class ColumnNameFindings {
    private ColumnNameFindings() {
    }

    /**
     * @param side  {@code source} or {@code target}, the finding code's family
     * @param table the table's name as people read it, e.g. {@code public.items}
     * @return whether every column passed
     */
    public static boolean check(String side, String table, List<String> columns, IdentifierLimit limit,
                                List<Finding> findings) {
        boolean passed = true;
        for (String column : columns) {
            Optional<String> problem = IdentifierRules.problem(column, limit);
            if (problem.isPresent()) {
                passed = false;
                findings.add(Finding.error(side + ".column.name-refused", side + " column \""
                        + column.replace("\"", "\\\"") + "\" of " + table + ": " + problem.get(), "Rename the column"
                        + " (or load from a table without it): names with quotes, brackets or control characters are"
                        + " refused so that no name can read as SQL (src-docs/security.md)."));
            }
        }
        return passed;
    }
}
