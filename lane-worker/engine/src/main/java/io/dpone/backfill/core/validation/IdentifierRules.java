package io.dpone.backfill.core.validation;

import io.dpone.backfill.core.campaign.IdentifierLimit;

import java.util.Optional;

/**
 * Rules every SQL identifier from a spec must pass before it is ever quoted into SQL. Quoting alone would make
 * most names safe, but names that try to break quoting, or that read differently than they execute
 * (bidirectional overrides, invisible format characters), are refused outright.
 */
public final class IdentifierRules {
    private IdentifierRules() {
    }

    /** Whitespace of any kind (a no-break space included) or a zero-width format character. */
    public static boolean invisible(int codePoint) {
        return Character.isWhitespace(codePoint) || Character.isSpaceChar(codePoint)
                || Character.getType(codePoint) == Character.FORMAT;
    }

    /** Returns why {@code name} is not acceptable under {@code limits}, or empty when it is. */
    public static Optional<String> problem(String name, IdentifierLimit... limits) {
        if (name == null || name.isEmpty()) {
            return Optional.of("must not be empty");
        }
        if (invisible(name.codePointAt(0)) || invisible(name.codePointBefore(name.length()))) {
            // strip() keeps a no-break space (issue 40): a name ending in one reads as the name without it.
            return Optional.of("must not start or end with whitespace or an invisible character");
        }
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            String bad = characterProblem(cp);
            if (bad != null) {
                return Optional.of(bad + " at position " + i);
            }
            i += Character.charCount(cp);
        }
        for (IdentifierLimit limit : limits) {
            int size = limit.measure(name);
            if (size > limit.max()) {
                return Optional.of("is " + size + " " + limit.unit() + " long; " + limit.name().toLowerCase()
                        + " allows at most " + limit.max());
            }
        }
        return Optional.empty();
    }

    private static String characterProblem(int cp) {
        if (cp == 0) {
            return "must not contain NUL";
        }
        if (Character.getType(cp) == Character.CONTROL) {
            return String.format("must not contain control character U+%04X", cp);
        }
        // FORMAT covers the bidirectional embeddings/overrides/isolates (U+202A-202E, U+2066-2069), the LRM/RLM
        // and ALM marks and zero-width characters: all make a name display differently than it executes.
        if (Character.getType(cp) == Character.FORMAT) {
            return String.format("must not contain invisible or bidirectional format character U+%04X", cp);
        }
        if (cp == '"' || cp == '\'' || cp == '`') {
            return "must not contain quote characters";
        }
        if (cp == '[' || cp == ']') {
            return "must not contain brackets";
        }
        if (cp == 0xFFFD || Character.getType(cp) == Character.SURROGATE || Character.getType(cp) == Character.UNASSIGNED) {
            return String.format("must not contain unassigned or malformed character U+%04X", cp);
        }
        return null;
    }
}
