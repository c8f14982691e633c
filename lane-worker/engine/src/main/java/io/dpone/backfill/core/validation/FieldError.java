package io.dpone.backfill.core.validation;

/**
 * One rejected field: where (a path such as {@code spec.chunk.buckets}), which rule, and what a person should know.
 */
public record FieldError(String path, String rule, String message) {
    @Override
    public String toString() {
        return (path.isEmpty() ? "(document)" : path) + ": " + message + " [" + rule + "]";
    }
}
