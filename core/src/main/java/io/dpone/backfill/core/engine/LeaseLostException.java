package io.dpone.backfill.core.engine;

/** The campaign lease was lost (expired or taken over): the driver must stop at once; another owner fences it. */
public class LeaseLostException extends RuntimeException {
    public LeaseLostException(String message) {
        super(message);
    }
}
