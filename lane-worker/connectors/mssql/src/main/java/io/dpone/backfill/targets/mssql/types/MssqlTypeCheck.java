package io.dpone.backfill.targets.mssql.types;

import java.util.Objects;

/**
 * The verdict of {@link MssqlTypeMap#check} on one source/target column pair: compatible with the binding that
 * loads it, or incompatible with a message naming both columns, both types and why.
 */
public final class MssqlTypeCheck {
    private final MssqlColumnBinding binding;
    private final String message;

    private MssqlTypeCheck(MssqlColumnBinding binding, String message) {
        this.binding = binding;
        this.message = message;
    }

    static MssqlTypeCheck compatible(MssqlColumnBinding binding, String message) {
        return new MssqlTypeCheck(Objects.requireNonNull(binding, "binding"), message);
    }

    static MssqlTypeCheck incompatible(String message) {
        return new MssqlTypeCheck(null, Objects.requireNonNull(message, "message"));
    }

    public boolean isCompatible() {
        return binding != null;
    }

    /** For a compatible pair, what loads it and which guards apply; for an incompatible one, why not. */
    public String message() {
        return message;
    }

    /** The binding of a compatible pair. */
    public MssqlColumnBinding binding() {
        if (binding == null) {
            throw new IllegalStateException("an incompatible pair has no binding: " + message);
        }
        return binding;
    }
}
