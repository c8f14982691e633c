package io.dpone.backfill.core.ledger;

/**
 * Why the lanes of a run claim no new chunk for now (issue 28), as the driver records it in the campaign row: the
 * source guard ({@value #SOURCE_GUARD}) or the load windows ({@value #OUTSIDE_LOAD_WINDOW}), and a message saying
 * which bound or window. Stored as {@code Reason: message}; a reason is one word, so the first {@code ": "} splits.
 */
public record ClaimPause(String reason, String message) {
    /** The status reasons of the same name: a pause's reason is what the Throttled condition says. */
    public static final String SOURCE_GUARD = io.dpone.backfill.core.campaign.ThrottleStatus.SOURCE_GUARD;
    public static final String OUTSIDE_LOAD_WINDOW = io.dpone.backfill.core.campaign.ThrottleStatus.OUTSIDE_LOAD_WINDOW;

    public ClaimPause {
        if (reason == null || !reason.matches("[A-Za-z]+")) {
            throw new IllegalArgumentException("a pause's reason is one word, got " + reason);
        }
    }

    /** The ledger's text. */
    public String text() {
        return reason + ": " + message;
    }

    /** The pause the ledger's text records; null for null. */
    public static ClaimPause parse(String text) {
        if (text == null) {
            return null;
        }
        int colon = text.indexOf(": ");
        return colon < 0 ? new ClaimPause(SOURCE_GUARD, text) : new ClaimPause(text.substring(0, colon), text.substring(colon + 2));
    }
}
