package io.dpone.backfill.core.campaign;

import java.util.ArrayList;
import java.util.List;

/**
 * The columns a load moves, as pairs in the target table's order: {@code target.get(i)} is loaded from
 * {@code source.get(i)} (issue 27). Lanes read the source names and write the target names; digests follow this
 * order on both sides, so they compare whatever the names.
 */
public record LoadColumns(List<String> target, List<String> source) {
    public LoadColumns {
        target = List.copyOf(target);
        source = List.copyOf(source);
        if (target.size() != source.size()) {
            throw new IllegalArgumentException(target.size() + " target columns cannot pair with " + source.size()
                    + " source columns");
        }
    }

    /** Columns named the same on both sides. */
    public static LoadColumns same(List<String> columns) {
        return new LoadColumns(columns, columns);
    }

    public boolean renamed() {
        return !target.equals(source);
    }

    /** The target column loaded from source column {@code source}; null when it loads none. */
    public String targetOf(String sourceColumn) {
        int i = source.indexOf(sourceColumn);
        return i < 0 ? null : target.get(i);
    }

    /**
     * The source column of each of {@code targets}, in their order: a reader of a loaded table given these pairs, or
     * none ({@code loaded} null: the names are the same), reads the source's types under them.
     */
    public static List<String> sourcesOf(LoadColumns loaded, List<String> targets) {
        return targets.stream().map(t -> loaded == null || loaded.sourceOf(t) == null ? t : loaded.sourceOf(t)).toList();
    }

    /** The source column that loads {@code targetColumn}; null when none does. */
    public String sourceOf(String targetColumn) {
        int i = target.indexOf(targetColumn);
        return i < 0 ? null : source.get(i);
    }

    /**
     * The target names of source key columns {@code sourceKey}, in key order.
     *
     * @throws IllegalArgumentException naming a key column no target column is loaded from
     */
    public List<String> targetKey(List<String> sourceKey) {
        List<String> key = new ArrayList<>(sourceKey.size());
        for (String column : sourceKey) {
            String t = targetOf(column);
            if (t == null) {
                throw new IllegalArgumentException("key column " + column + " loads no target column (loaded: "
                        + describe() + ")");
            }
            key.add(t);
        }
        return key;
    }

    /** {@code source -> target} for each renamed pair, the name alone otherwise. */
    public String describe() {
        List<String> pairs = new ArrayList<>(target.size());
        for (int i = 0; i < target.size(); i++) {
            pairs.add(source.get(i).equals(target.get(i)) ? target.get(i) : source.get(i) + " -> " + target.get(i));
        }
        return String.join(", ", pairs);
    }
}
