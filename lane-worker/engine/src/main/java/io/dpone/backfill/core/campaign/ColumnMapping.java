package io.dpone.backfill.core.campaign;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which source column loads a target column (issue 27): an explicit pair of {@code spec.columns.map} first, then the
 * naming rule over the source columns no pair names. Pure names: the catalogs say which columns exist. Target names
 * are compared as the target database compares identifiers ({@link #under}, issue 36); source names exactly.
 */
public final class ColumnMapping {
    public static final ColumnMapping SAME_NAMES = new ColumnMapping(ColumnNaming.EXACT, Map.of(), IdentifierComparison.EXACT);

    private final ColumnNaming naming;
    /** Source column to target column. */
    private final Map<String, String> pairs;
    private final IdentifierComparison targetNames;

    private ColumnMapping(ColumnNaming naming, Map<String, String> pairs, IdentifierComparison targetNames) {
        this.naming = naming;
        this.pairs = Map.copyOf(pairs);
        this.targetNames = targetNames;
    }

    /** The same mapping, target names compared as {@code targetNames} says the target database compares them. */
    public ColumnMapping under(IdentifierComparison targetNames) {
        return targetNames == this.targetNames ? this : new ColumnMapping(naming, pairs, targetNames);
    }

    public static ColumnMapping of(ColumnsSpec spec) {
        if (spec == null) {
            return SAME_NAMES;
        }
        return new ColumnMapping(spec.getNaming() == null ? ColumnNaming.EXACT : spec.getNaming(),
                spec.getMap() == null ? Map.of() : spec.getMap(), IdentifierComparison.EXACT);
    }

    public boolean sameNames() {
        return naming == ColumnNaming.EXACT && pairs.entrySet().stream().allMatch(e -> e.getKey().equals(e.getValue()));
    }

    public ColumnNaming naming() {
        return naming;
    }

    /** The explicit pairs, source to target, sorted by source. */
    public Map<String, String> pairs() {
        return new TreeMap<>(pairs);
    }

    /**
     * The source column among {@code sourceColumns} that loads {@code target}; empty when none does.
     *
     * @throws IllegalArgumentException when the naming rule finds two source columns for it
     */
    public Optional<String> sourceOf(String target, Collection<String> sourceColumns) {
        for (Map.Entry<String, String> pair : pairs.entrySet()) {
            if (targetNames.same(pair.getValue(), target)) {
                return sourceColumns.contains(pair.getKey()) ? Optional.of(pair.getKey()) : Optional.empty();
            }
        }
        List<String> found = new ArrayList<>();
        for (String source : sourceColumns) {
            if (!pairs.containsKey(source) && naming.matches(source, target, targetNames)) {
                found.add(source);
            }
        }
        if (found.size() > 1) {
            throw new IllegalArgumentException("spec.columns.naming: source columns " + found + " all load target"
                    + " column " + target + " under " + naming.wireName() + "; pair one of them in spec.columns.map");
        }
        return found.stream().findFirst();
    }

    /**
     * The target column among {@code targetColumns} that source column {@code source} loads; empty when none.
     *
     * @throws IllegalArgumentException when the naming rule finds two target columns for it
     */
    public Optional<String> targetOf(String source, Collection<String> targetColumns) {
        if (pairs.containsKey(source)) {
            String target = pairs.get(source);
            return targetColumns.stream().filter(t -> targetNames.same(t, target)).findFirst();
        }
        List<String> found = new ArrayList<>();
        for (String target : targetColumns) {
            if (pairs.values().stream().noneMatch(v -> targetNames.same(v, target)) && naming.matches(source, target, targetNames)) {
                found.add(target);
            }
        }
        if (found.size() > 1) {
            throw new IllegalArgumentException("spec.columns.naming: source column " + source + " would load target"
                    + " columns " + found + " under " + naming.wireName() + "; pair it in spec.columns.map");
        }
        return found.stream().findFirst();
    }

    /**
     * The pairs for {@code targets} (the columns the load may write, in the target's order): each with the source
     * column that loads it, those with none left out.
     */
    public LoadColumns pair(List<String> targets, Collection<String> sourceColumns) {
        List<String> target = new ArrayList<>();
        List<String> source = new ArrayList<>();
        for (String t : targets) {
            sourceOf(t, sourceColumns).ifPresent(s -> {
                target.add(t);
                source.add(s);
            });
        }
        return new LoadColumns(target, source);
    }

    /**
     * What the explicit pairs get wrong against both tables' columns, each naming its field: a source column the
     * source lacks, a target column the target lacks. Empty when every pair names columns that exist.
     */
    public List<String> unknownColumns(Collection<String> sourceColumns, Collection<String> targetColumns) {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> pair : new TreeMap<>(pairs).entrySet()) {
            if (!sourceColumns.contains(pair.getKey())) {
                problems.add("spec.columns.map." + pair.getKey() + ": the source table has no column " + pair.getKey());
            }
            if (targetColumns.stream().noneMatch(t -> targetNames.same(t, pair.getValue()))) {
                problems.add("spec.columns.map." + pair.getKey() + ": the target table has no column " + pair.getValue());
            }
        }
        return problems;
    }

    /** {@code naming} and the pairs, as {@code plan} and {@code doctor} show them. */
    public String describe() {
        return naming.wireName() + (pairs.isEmpty() ? "" : ", pairs " + pairs());
    }
}
