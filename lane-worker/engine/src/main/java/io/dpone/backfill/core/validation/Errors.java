package io.dpone.backfill.core.validation;

import io.dpone.backfill.core.campaign.IdentifierLimit;

import java.util.ArrayList;
import java.util.List;

/** Collects field errors in discovery order. */
final class Errors {
    private final List<FieldError> list = new ArrayList<>();

    void add(String path, String rule, String message) {
        list.add(new FieldError(path, rule, message));
    }

    boolean has(String pathPrefix) {
        return list.stream().anyMatch(e -> e.path().equals(pathPrefix) || e.path().startsWith(pathPrefix + "."));
    }

    boolean isEmpty() {
        return list.isEmpty();
    }

    List<FieldError> list() {
        return List.copyOf(list);
    }

    /** Adds an error unless the value is present; returns whether it was present. */
    boolean require(Object value, String path) {
        if (value == null) {
            add(path, "required", "is required");
            return false;
        }
        return true;
    }

    void range(Integer value, int min, int max, String path) {
        if (value != null && (value < min || value > max)) {
            add(path, "range", "must be between " + min + " and " + max + ", got " + value);
        }
    }

    void identifier(String name, String path, IdentifierLimit... limits) {
        IdentifierRules.problem(name, limits).ifPresent(p -> add(path, "identifier", p));
    }
}
