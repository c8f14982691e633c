package io.dpone.backfill.core.publish;

/**
 * A publication group's swap did not run because of another member (issue 27): that member is not ready under the
 * swap's locks, or its part of the swap would be refused. Nothing was changed; this member keeps waiting, and the
 * member at fault finds out (and blocks) when its own driver tries the swap.
 */
public final class GroupHeldException extends RuntimeException {
    private final String memberTable;

    public GroupHeldException(String memberTable, String message, Throwable cause) {
        super(message, cause);
        this.memberTable = memberTable;
    }

    /** The live table of the member that holds the group. */
    public String memberTable() {
        return memberTable;
    }
}
