package io.dpone.backfill.lane;

import io.dpone.backfill.core.validation.CampaignRejectedException;
import picocli.CommandLine;

/**
 * The exit codes of every {@code backfill} command and of a lane process: one table, each code one meaning, listed
 * by {@code backfill --help} and in the README ("Exit codes").
 */
public final class ExitCodes {
    /** Done: the command did what it was asked (a campaign published and handed off, a check passed). */
    public static final int OK = 0;
    /** A failure the message names (a database, a file, a lost lease): nothing was half-done that a resume cannot finish. */
    public static final int FAILURE = 1;
    /** Invalid input (a campaign file, an option): every problem named with its field; nothing was touched. */
    public static final int INVALID = 2;
    /** The campaign is Blocked (validation, drift, a changed live table): read the reason; a resume will not help. */
    public static final int BLOCKED = 3;
    /** The campaign is Recoverable: fix what {@code lastError} names, then one {@code backfill resume}. */
    public static final int RECOVERABLE = 4;
    /** Another driver holds the campaign's lease; nothing was changed. */
    public static final int LEASE_HELD = 5;
    /** Pre-flight checks found errors ({@code doctor}, or {@code run} refusing before any change). */
    public static final int PREFLIGHT_ERRORS = 6;
    /**
     * Differences remain: {@code verify} found rows that differ from the source; {@code reconcile} (or a run with
     * {@code spec.reconcile}) left keys waiting for a decision.
     */
    public static final int DIFFERENCES = 7;
    /** {@code certify} ran and a scenario did not pass. */
    public static final int NOT_CERTIFIED = 8;
    /**
     * The campaign validated and waits for the other members of its publication group (issue 27): run theirs; the
     * one that completes the group swaps every member; then run this one again to hand it off.
     */
    public static final int AWAITING_GROUP = 9;

    private ExitCodes() {
    }

    /** A failure thrown by a command, as its exit code. */
    public static int forException(Throwable t) {
        // An option checked inside a command (bench, demo) is a usage error like one picocli rejects itself.
        return t instanceof CampaignRejectedException || t instanceof CommandLine.ParameterException
                ? INVALID : FAILURE;
    }
}
