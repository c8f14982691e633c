package io.dpone.backfill.wiring;

/** The campaign is valid but this build has no adapter for its source engine; raised before any side effect. */
public class UnsupportedSourceException extends RuntimeException {
    public UnsupportedSourceException(String message) {
        super(message);
    }
}
