package io.dpone.backfill.core.publish;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** What changed between the shape recorded at preparation and the current one, named column by column. */
public final class TableShapeDiff {
    private static final int MAX_CHANGES = 10;

    private TableShapeDiff() {
    }

    /** Human-readable changes, empty when the shapes match; bounded so a rebuilt table does not flood a status. */
    public static List<String> changes(TableShape recorded, TableShape current) {
        List<String> changes = new ArrayList<>();
        for (ColumnShape now : current.columns()) {
            Optional<ColumnShape> then = recorded.column(now.name());
            if (then.isEmpty()) {
                changes.add("column " + now.name() + " was added (" + now.describe() + ")");
            } else if (!then.get().equals(now)) {
                changes.add("column " + now.name() + " changed from " + then.get().describe() + " to " + now.describe());
            }
        }
        for (ColumnShape then : recorded.columns()) {
            if (current.column(then.name()).isEmpty()) {
                changes.add("column " + then.name() + " was dropped");
            }
        }
        if (changes.isEmpty() && !recorded.columnNames().equals(current.columnNames())) {
            changes.add("column order changed from " + recorded.columnNames() + " to " + current.columnNames());
        }
        for (String c : current.constraints()) {
            if (!recorded.constraints().contains(c)) {
                changes.add("constraint or index added or changed: " + c);
            }
        }
        for (String c : recorded.constraints()) {
            if (!current.constraints().contains(c)) {
                changes.add("constraint or index dropped or changed: " + c);
            }
        }
        return changes.size() > MAX_CHANGES ? List.copyOf(changes.subList(0, MAX_CHANGES)) : List.copyOf(changes);
    }

    /** One line for a block reason, or null when nothing changed. */
    public static String describe(String what, TableShape recorded, TableShape current) {
        List<String> changes = changes(recorded, current);
        return changes.isEmpty() ? null : what + " changed since preparation: " + String.join("; ", changes);
    }
}
