package io.dpone.backfill.operator.driver;

/** A connection Secret is missing or lacks the documented keys: transient (the user may create it), retried with backoff. */
public class SecretUnavailableException extends RuntimeException {
    private final String reason;

    public SecretUnavailableException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
