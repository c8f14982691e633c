package io.dpone.backfill.targets.mssql.publish;

import java.util.ArrayList;
import java.util.List;

/**
 * A T-SQL {@code CONCAT} of any number of string expressions. CONCAT takes at least two and at most 254 arguments
 * (MicrosoftDocs sql-docs, docs/t-sql/functions/concat-transact-sql.md), so a long list is cut into calls of at most
 * 254 arguments, each led by {@code N''} (which also makes a single part a valid two-argument call), and those are
 * concatenated the same way. The text is the same as one call would give: concatenation is associative.
 */
final class MssqlConcat {
    /** CONCAT's documented maximum number of arguments. */
    static final int MAX_ARGUMENTS = 254;
    private static final String EMPTY = "N''";

    private MssqlConcat() {
    }

    static String of(List<String> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("CONCAT needs at least one part");
        }
        List<String> level = parts;
        do {
            List<String> calls = new ArrayList<>();
            for (int from = 0; from < level.size(); from += MAX_ARGUMENTS - 1) {
                List<String> group = level.subList(from, Math.min(level.size(), from + MAX_ARGUMENTS - 1));
                calls.add("CONCAT(" + EMPTY + ", " + String.join(", ", group) + ")");
            }
            level = calls;
        } while (level.size() > 1);
        return level.get(0);
    }
}
