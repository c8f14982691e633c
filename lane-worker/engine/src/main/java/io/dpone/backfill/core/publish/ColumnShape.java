package io.dpone.backfill.core.publish;

/**
 * One column as the catalog describes it: name, the engine's type text, nullability, and how the target fills it
 * when a load does not: {@code defaultExpression} (null when none), {@code generated} (computed by the target from
 * other columns, never loaded), {@code identity} (loaded with the source's values; the sequence continues after them).
 */
public record ColumnShape(String name, String type, boolean nullable, String defaultExpression, boolean generated,
                          boolean identity) {
    public ColumnShape(String name, String type, boolean nullable) {
        this(name, type, nullable, null, false, false);
    }

    /** Whether a load that leaves this column out still produces valid rows. */
    public boolean fillableByTarget() {
        return nullable || defaultExpression != null || generated || identity;
    }

    String describe() {
        return type + (nullable ? " NULL" : " NOT NULL") + (defaultExpression == null ? "" : " DEFAULT " + defaultExpression)
                + (generated ? " GENERATED" : "") + (identity ? " IDENTITY" : "");
    }
}
