package io.dpone.backfill.cli.local;

/** Lane processes failed more often than the retry budget allows. */
public class LaneBudgetExceededException extends RuntimeException {
    public LaneBudgetExceededException(String message) {
        super(message);
    }
}
