package io.dpone.backfill.core.generate;

import io.dpone.backfill.core.campaign.ColumnMapping;
import io.dpone.backfill.core.campaign.ColumnNaming;
import io.dpone.backfill.core.campaign.ColumnsSpec;
import io.dpone.backfill.core.campaign.LoadColumns;
import io.dpone.backfill.core.campaign.IdentifierComparison;
import io.dpone.backfill.core.publish.TableShape;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Pairs the tables of a source schema with those of a target schema for {@code backfill generate} (issue 27): table
 * and column names under one naming rule, the unique key from the source's primary key, chunks sized from the
 * table, and a publication order in which every table comes after the tables its foreign keys reference (so its
 * keys validate against published parents). Tables it cannot pair are listed with why. Pure: the catalogs were read
 * before.
 */
public final class SchemaPairing {
    private final List<PairedTable> paired;
    private final List<UnpairedTable> unpaired;

    private SchemaPairing(List<PairedTable> paired, List<UnpairedTable> unpaired) {
        this.paired = List.copyOf(paired);
        this.unpaired = List.copyOf(unpaired);
    }

    /** As below, target names compared exactly (PostgreSQL's rule). */
    public static SchemaPairing of(List<SourceTableFacts> sources, Map<String, TableShape> targets,
                                   List<TableReference> targetReferences, ColumnNaming naming) {
        return of(sources, targets, targetReferences, naming, IdentifierComparison.EXACT);
    }

    /**
     * @param targets     the target schema's tables by name, each with its live shape
     * @param targetNames how the target database compares names: a table or column is paired as it would resolve it
     */
    public static SchemaPairing of(List<SourceTableFacts> sources, Map<String, TableShape> targets,
                                   List<TableReference> targetReferences, ColumnNaming naming,
                                   IdentifierComparison targetNames) {
        ColumnsSpec spec = new ColumnsSpec();
        spec.setNaming(naming);
        ColumnMapping mapping = ColumnMapping.of(spec).under(targetNames);
        List<UnpairedTable> unpaired = new ArrayList<>();
        Map<String, Candidate> byTarget = new TreeMap<>();
        Set<String> matchedTargets = new HashSet<>();
        for (SourceTableFacts source : sources) {
            List<String> names = targets.keySet().stream().filter(t -> naming.matches(source.name(), t, targetNames))
                    .sorted().toList();
            if (names.isEmpty()) {
                unpaired.add(new UnpairedTable("source", source.name(), "no target table is named after it under "
                        + naming.wireName() + " (looked for " + naming.targetName(source.name()) + ")"));
                continue;
            }
            if (names.size() > 1) {
                unpaired.add(new UnpairedTable("source", source.name(), "target tables " + names + " are all named"
                        + " after it under " + naming.wireName() + ": write its campaign by hand"));
                matchedTargets.addAll(names);
                continue;
            }
            String target = names.get(0);
            matchedTargets.add(target);
            String why = problem(source, targets.get(target).comparedAs(targetNames), mapping);
            if (why != null) {
                unpaired.add(new UnpairedTable("source", source.name(), why));
                continue;
            }
            byTarget.put(target, new Candidate(source, target,
                    targets.get(target).comparedAs(targetNames).loadColumnsFrom(source.shape(), mapping)));
        }
        for (String target : new TreeSet<>(targets.keySet())) {
            if (!matchedTargets.contains(target)) {
                unpaired.add(new UnpairedTable("target", target, "no source table is named so under " + naming.wireName()));
            }
        }
        return new SchemaPairing(order(byTarget, targetReferences), unpaired);
    }

    public List<PairedTable> paired() {
        return paired;
    }

    public List<UnpairedTable> unpaired() {
        return unpaired;
    }

    private record Candidate(SourceTableFacts source, String target, LoadColumns columns) {
    }

    /** Why the pair cannot make a campaign; null when it can. */
    private static String problem(SourceTableFacts source, TableShape target, ColumnMapping mapping) {
        if (source.primaryKey().isEmpty()) {
            return "it has no primary key: a campaign needs a unique key; add one, or write the campaign by hand with"
                    + " spec.uniqueKey";
        }
        LoadColumns loaded;
        List<String> missing;
        try {
            loaded = target.loadColumnsFrom(source.shape(), mapping);
            missing = target.requiredMissingIn(source.shape(), mapping);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (!missing.isEmpty()) {
            return "target columns " + missing + " are NOT NULL without a default and no source column loads them"
                    + " under " + mapping.naming().wireName() + ": pair them in spec.columns.map by hand";
        }
        for (String key : source.primaryKey()) {
            if (loaded.targetOf(key) == null) {
                return "its primary key column " + key + " loads no target column under " + mapping.naming().wireName();
            }
        }
        return null;
    }

    /** Parents first (Kahn's order, ties by name); tables in a reference cycle last, each naming its cycle. */
    private static List<PairedTable> order(Map<String, Candidate> byTarget, List<TableReference> references) {
        Map<String, Set<String>> parents = new LinkedHashMap<>();
        for (String target : byTarget.keySet()) {
            parents.put(target, new TreeSet<>());
        }
        for (TableReference r : references) {
            if (parents.containsKey(r.table()) && parents.containsKey(r.referenced()) && !r.table().equals(r.referenced())) {
                parents.get(r.table()).add(r.referenced());
            }
        }
        List<String> ordered = new ArrayList<>();
        Set<String> placed = new HashSet<>();
        boolean progress = true;
        while (progress) {
            progress = false;
            for (String table : parents.keySet()) {
                if (!placed.contains(table) && placed.containsAll(parents.get(table))) {
                    ordered.add(table);
                    placed.add(table);
                    progress = true;
                    break; // restart: ties go by name, parents always before their children
                }
            }
        }
        List<String> cyclic = parents.keySet().stream().filter(t -> !placed.contains(t)).toList();
        ordered.addAll(cyclic);
        List<PairedTable> result = new ArrayList<>();
        for (int i = 0; i < ordered.size(); i++) {
            String table = ordered.get(i);
            Candidate c = byTarget.get(table);
            List<String> cycle = cyclic.contains(table) ? cycleOf(table, parents, cyclic) : List.of();
            result.add(new PairedTable(c.source(), table, c.columns(), ChunkSizing.of(c.source()), i + 1,
                    List.copyOf(parents.get(table)), cycle));
        }
        return result;
    }

    /** The other unplaced tables that {@code table} reaches and that reach it back. */
    private static List<String> cycleOf(String table, Map<String, Set<String>> parents, List<String> unplaced) {
        List<String> cycle = new ArrayList<>();
        for (String other : unplaced) {
            if (!other.equals(table) && reaches(table, other, parents) && reaches(other, table, parents)) {
                cycle.add(other);
            }
        }
        return cycle;
    }

    private static boolean reaches(String from, String to, Map<String, Set<String>> parents) {
        Deque<String> queue = new ArrayDeque<>(List.of(from));
        Set<String> seen = new HashSet<>();
        while (!queue.isEmpty()) {
            String t = queue.poll();
            for (String p : parents.getOrDefault(t, Set.of())) {
                if (p.equals(to)) {
                    return true;
                }
                if (seen.add(p)) {
                    queue.add(p);
                }
            }
        }
        return false;
    }
}
