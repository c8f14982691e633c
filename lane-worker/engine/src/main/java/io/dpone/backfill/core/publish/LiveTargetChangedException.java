package io.dpone.backfill.core.publish;

/**
 * The live target's shape or content is not what preparation recorded: publishing would hide the change in the
 * backup. Thrown before anything changed; the campaign blocks with the shadow kept and the live table untouched.
 */
public class LiveTargetChangedException extends RuntimeException {
    private final boolean contentChanged;

    private LiveTargetChangedException(String message, boolean contentChanged) {
        super(message);
        this.contentChanged = contentChanged;
    }

    /** The live table's shape (columns, constraints, indexes) differs from the baseline. */
    public static LiveTargetChangedException shapeChanged(String message) {
        return new LiveTargetChangedException(message, false);
    }

    /** The live table's rows differ from the baseline: someone wrote to it after preparation. */
    public static LiveTargetChangedException written(String message) {
        return new LiveTargetChangedException(message, true);
    }

    public boolean contentChanged() {
        return contentChanged;
    }
}
