package io.dpone.backfill.core.publish;

import java.util.List;

/**
 * Rows of another table reference, through a foreign key, keys that the table a swap would move in lacks: re-pointed
 * at it, the key would not hold. Thrown inside the swap's transaction before it commits, so nothing changed; the
 * campaign blocks ({@code ForeignKeyOrphans}) with the shadow kept and the live table untouched.
 */
public class ReferencedKeysMissingException extends RuntimeException {
    private final String foreignKey;
    private final long orphanRows;
    private final List<String> sample;

    /**
     * @param foreignKey the key, as {@code name on schema.table}
     * @param sample     up to a few of the referencing values, as {@code (columns)=(values)}
     */
    public ReferencedKeysMissingException(String foreignKey, String referencingTable, long orphanRows, List<String> sample) {
        super("foreign key " + foreignKey + " would not hold: " + orphanRows + " row" + (orphanRows == 1 ? "" : "s")
                + " of " + referencingTable + (orphanRows == 1 ? " references a key" : " reference keys") + " the table moving in lacks"
                + (sample.isEmpty() ? "" : ", e.g. " + String.join(", ", sample)) + "; nothing was changed");
        this.foreignKey = foreignKey;
        this.orphanRows = orphanRows;
        this.sample = List.copyOf(sample);
    }

    public String foreignKey() {
        return foreignKey;
    }

    public long orphanRows() {
        return orphanRows;
    }

    public List<String> sample() {
        return sample;
    }
}
