package io.dpone.backfill.core.doctor;

import java.util.Objects;

/**
 * One result of a doctor check. {@code code} is stable (for example {@code source.chunk-column.nullable}) so that
 * tools and runbooks can key on it; {@code message} says what was found, {@code recommendedAction} what a person
 * can do about it (empty for OK findings).
 */
public record Finding(Severity severity, String code, String message, String recommendedAction) {
    public Finding {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
        recommendedAction = recommendedAction == null ? "" : recommendedAction;
    }

    public static Finding ok(String code, String message) {
        return new Finding(Severity.OK, code, message, "");
    }

    public static Finding warning(String code, String message, String recommendedAction) {
        return new Finding(Severity.WARNING, code, message, recommendedAction);
    }

    public static Finding error(String code, String message, String recommendedAction) {
        return new Finding(Severity.ERROR, code, message, recommendedAction);
    }
}
