package io.dpone.backfill.wiring;

/** The campaign is valid but this build has no adapter for its target engine; raised before any side effect. */
public class UnsupportedTargetException extends RuntimeException {
    public UnsupportedTargetException(String message) {
        super(message);
    }
}
