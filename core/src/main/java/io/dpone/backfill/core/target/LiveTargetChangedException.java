package io.dpone.backfill.core.target;

/**
 * The live target's shape or content is not what preparation recorded: publishing would hide the change in the
 * backup. Thrown before anything changed; the campaign blocks with the shadow kept and the live table untouched.
 */
public class LiveTargetChangedException extends RuntimeException {
    public LiveTargetChangedException(String message) {
        super(message);
    }
}
