package io.dpone.backfill.core.publish;

/**
 * A shadow, backup or live table is owned by another run key (or by nobody) where this campaign expected its own:
 * the operation fails closed and leaves every table untouched.
 */
public class ArtifactOwnershipException extends RuntimeException {
    public ArtifactOwnershipException(String message) {
        super(message);
    }
}
