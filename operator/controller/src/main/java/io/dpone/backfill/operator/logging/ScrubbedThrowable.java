package io.dpone.backfill.operator.logging;

import io.dpone.backfill.redaction.CredentialScrubber;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A logged exception as it prints, with its messages scrubbed: the same class name, message (scrubbed), stack,
 * causes and suppressed exceptions. An exception whose messages hold nothing to scrub is logged as it is.
 */
final class ScrubbedThrowable extends RuntimeException {
    private final String type;

    private ScrubbedThrowable(String type, String message) {
        super(message);
        this.type = type;
    }

    static Throwable of(Throwable thrown) {
        return needsScrubbing(thrown, new IdentityHashMap<>()) ? copy(thrown, new IdentityHashMap<>()) : thrown;
    }

    private static boolean needsScrubbing(Throwable t, Map<Throwable, Boolean> seen) {
        if (t == null || seen.put(t, Boolean.TRUE) != null) {
            return false;
        }
        String message = t.getMessage();
        if (message != null && !message.equals(CredentialScrubber.scrub(message))) {
            return true;
        }
        for (Throwable suppressed : t.getSuppressed()) {
            if (needsScrubbing(suppressed, seen)) {
                return true;
            }
        }
        return needsScrubbing(t.getCause(), seen);
    }

    private static Throwable copy(Throwable t, Map<Throwable, Throwable> copies) {
        Throwable done = copies.get(t);
        if (done != null) {
            return done;
        }
        ScrubbedThrowable copy = new ScrubbedThrowable(t.getClass().getName(), CredentialScrubber.scrub(t.getMessage()));
        copies.put(t, copy);
        copy.setStackTrace(t.getStackTrace());
        if (t.getCause() != null) {
            copy.initCause(copy(t.getCause(), copies));
        }
        for (Throwable suppressed : t.getSuppressed()) {
            copy.addSuppressed(copy(suppressed, copies));
        }
        return copy;
    }

    /** Prints as the original did: its class name, then its (scrubbed) message. */
    @Override
    public String toString() {
        return getLocalizedMessage() == null ? type : type + ": " + getLocalizedMessage();
    }
}
