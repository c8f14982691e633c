package io.dpone.backfill.core.manifest;

import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;
import io.dpone.backfill.core.validation.IdentifierRules;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.MappingStartEvent;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.events.SequenceStartEvent;

import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A campaign manifest means exactly what it says, or is refused naming the field (issue 40). Read event by event
 * before binding, it must use plain YAML only:
 * <ul>
 * <li>no anchors, aliases or merge keys ({@code <<}): the binder reads an alias as a string holding its name (a
 * column {@code *p} named {@code p}) and a merge key as a key named {@code <<}, so what they would mean in YAML is
 * never what runs;</li>
 * <li>no explicit tags ({@code !!int}, {@code !custom}): a value's type comes from the field;</li>
 * <li>keys are strings: a plain key the YAML 1.2 core schema (yaml.org/spec/1.2.2 §10.3.2) resolves to null, a
 * boolean, an integer or a float ({@code 1}, {@code true}, {@code null}, {@code 1.5}) is refused; quote it to mean
 * the name;</li>
 * <li>no string, key or value, begins or ends with whitespace or an invisible character (a trailing no-break space,
 * {@code "manual "}): names and enum values compare exactly;</li>
 * <li>syntax errors (a tab where YAML allows none, a NUL byte) name the line, the column and the field being read.</li>
 * </ul>
 */
final class PlainYaml {
    private static final Pattern CORE_NULL = Pattern.compile("null|Null|NULL|~|");
    private static final Pattern CORE_BOOL = Pattern.compile("true|True|TRUE|false|False|FALSE");
    private static final Pattern CORE_INT = Pattern.compile("[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+");
    private static final Pattern CORE_FLOAT = Pattern.compile(
            "[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\\.(inf|Inf|INF)|\\.nan|\\.NaN|\\.NAN");

    /** Where the reader is: a mapping (expecting a key or a value) or a sequence (at an index). */
    private static final class Level {
        final boolean mapping;
        boolean expectingKey = true;
        String key;
        int index = -1;

        Level(boolean mapping) {
            this.mapping = mapping;
        }
    }

    private final Deque<Level> levels = new ArrayDeque<>();

    private PlainYaml() {
    }

    /** Throws {@link CampaignRejectedException} at the first construct a manifest does not use. */
    static void check(String yaml) {
        new PlainYaml().walk(yaml);
    }

    private void walk(String yaml) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(true); // the binder names duplicates with their path
        Iterable<Event> events = new Yaml(options).parse(new StringReader(yaml));
        try {
            for (Event event : events) {
                visit(event);
            }
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            throw rejected("yaml-syntax", (e.getProblem() != null ? e.getProblem() : "malformed YAML")
                    + (mark == null ? "" : " at line " + (mark.getLine() + 1) + ", column " + (mark.getColumn() + 1))
                    + describeField());
        } catch (YAMLException e) {
            // Unmarked: the reader refused a character (a NUL byte, a lone surrogate) before the scanner saw it.
            throw rejected("yaml-syntax", firstLine(e.getMessage()) + describeField());
        }
    }

    private void visit(Event event) {
        if (event instanceof AliasEvent alias) {
            throw at(alias, "alias", "an alias (*" + alias.getAnchor() + ") is not read as YAML defines it here;"
                    + " write the value out");
        }
        if (event instanceof NodeEvent node && node.getAnchor() != null) {
            throw at(node, "anchor", "an anchor (&" + node.getAnchor() + ") is not allowed in a campaign; write each"
                    + " value out where it is used");
        }
        if (event instanceof CollectionStartEvent collection && collection.getTag() != null && !collection.getImplicit()) {
            throw at(collection, "tag", "an explicit tag (" + collection.getTag() + ") is not allowed: the field"
                    + " says what type its value is");
        }
        if (event instanceof MappingStartEvent) {
            valueStarts();
            levels.push(new Level(true));
        } else if (event instanceof SequenceStartEvent) {
            valueStarts();
            levels.push(new Level(false));
        } else if (event.is(Event.ID.MappingEnd) || event.is(Event.ID.SequenceEnd)) {
            levels.pop();
            valueEnds();
        } else if (event instanceof ScalarEvent scalar) {
            scalar(scalar);
        }
    }

    private void scalar(ScalarEvent scalar) {
        Level level = levels.peek();
        boolean isKey = level != null && level.mapping && level.expectingKey;
        if (scalar.getTag() != null && !scalar.getImplicit().canOmitTagInPlainScalar()
                && !scalar.getImplicit().canOmitTagInNonPlainScalar()) {
            throw at(scalar, "tag", "an explicit tag (" + scalar.getTag() + ") is not allowed: the field says what"
                    + " type its value is");
        }
        String value = scalar.getValue();
        if (isKey) {
            if (scalar.isPlain() && "<<".equals(value)) {
                throw at(scalar, "merge-key", "a merge key (<<) is not read as YAML defines it here; write the"
                        + " fields out");
            }
            if (scalar.isPlain() && coreType(value) != null) {
                throw at(scalar, "key-type", "the key " + (value.isEmpty() ? "(empty)" : value) + " is "
                        + coreType(value) + " in YAML, not a name; quote it (\"" + value + "\") if it is one");
            }
        }
        if (!value.isEmpty() && (IdentifierRules.invisible(value.codePointAt(0)) || IdentifierRules.invisible(value.codePointBefore(value.length())))) {
            if (isKey) {
                level.key = value;
            }
            throw at(scalar, "whitespace", (isKey ? "the key" : "the value") + " '" + shown(value) + "' begins or ends"
                    + " with whitespace or an invisible character; names and values compare exactly");
        }
        if (isKey) {
            level.key = value;
            level.expectingKey = false;
        } else {
            valueStarts();
            valueEnds();
        }
    }

    private void valueStarts() {
        Level level = levels.peek();
        if (level != null && !level.mapping) {
            level.index++;
        }
    }

    private void valueEnds() {
        Level level = levels.peek();
        if (level != null && level.mapping) {
            level.expectingKey = true;
        }
    }

    /** The type the YAML 1.2 core schema gives a plain scalar, or null for a string. */
    static String coreType(String plain) {
        if (CORE_NULL.matcher(plain).matches()) {
            return "null";
        }
        if (CORE_BOOL.matcher(plain).matches()) {
            return "a boolean";
        }
        if (CORE_INT.matcher(plain).matches()) {
            return "an integer";
        }
        if (CORE_FLOAT.matcher(plain).matches()) {
            return "a float";
        }
        return null;
    }

    private static String shown(String value) {
        StringBuilder b = new StringBuilder();
        value.codePoints().forEach(cp -> {
            if (IdentifierRules.invisible(cp) && cp != ' ') {
                b.append(String.format("\\u%04X", cp));
            } else {
                b.appendCodePoint(cp);
            }
        });
        return b.toString();
    }

    private CampaignRejectedException at(Event event, String rule, String message) {
        Mark mark = event.getStartMark();
        return rejected(rule, message + (mark == null ? "" : " (line " + (mark.getLine() + 1) + ", column "
                + (mark.getColumn() + 1) + ")"));
    }

    private CampaignRejectedException rejected(String rule, String message) {
        return new CampaignRejectedException(List.of(new FieldError(path(), rule, message)));
    }

    /** The field path being read, as the binder names fields: {@code spec.columns.pairs}, {@code spec.uniqueKey[1]}. */
    private String path() {
        StringBuilder b = new StringBuilder();
        var it = levels.descendingIterator();
        while (it.hasNext()) {
            Level level = it.next();
            if (level.mapping && level.key != null) {
                b.append(b.length() == 0 ? "" : ".").append(level.key);
            } else if (!level.mapping && level.index >= 0) {
                b.append('[').append(level.index).append(']');
            }
        }
        return b.toString();
    }

    private String describeField() {
        String path = path();
        return path.isEmpty() ? "" : ", in " + path;
    }

    private static String firstLine(String message) {
        return message == null ? "malformed YAML" : message.lines().findFirst().orElse(message);
    }
}
