package io.dpone.backfill.core.engine;

/**
 * A database call failed, with a kind that tells a driver what to do: {@link Kind#TRANSIENT} (connection reset, lock
 * timeout, serialization failure, server restarting: back off and retry) or {@link Kind#PERMANENT} (missing
 * privilege, type mismatch, constraint violation: retrying cannot help; one condition and one Event with
 * {@link #reason()} tell a person what to fix). Each adapter maps its own error codes onto the kinds.
 */
public class DatabaseFailureException extends IllegalStateException {
    public enum Kind { TRANSIENT, PERMANENT }

    private final Kind kind;
    private final String reason;

    /** {@code reason}: a short CamelCase word for conditions and Events, e.g. {@code MissingPrivilege}. */
    public DatabaseFailureException(Kind kind, String reason, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.reason = reason;
    }

    public Kind kind() {
        return kind;
    }

    public boolean isTransient() {
        return kind == Kind.TRANSIENT;
    }

    public String reason() {
        return reason;
    }
}
