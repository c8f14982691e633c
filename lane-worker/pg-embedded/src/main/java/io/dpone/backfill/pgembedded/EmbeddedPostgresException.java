package io.dpone.backfill.pgembedded;

/** Thrown when the embedded server cannot be prepared, started or stopped; the message carries the relevant log tail. */
public final class EmbeddedPostgresException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EmbeddedPostgresException(String message) {
        super(message);
    }

    public EmbeddedPostgresException(String message, Throwable cause) {
        super(message, cause);
    }
}
