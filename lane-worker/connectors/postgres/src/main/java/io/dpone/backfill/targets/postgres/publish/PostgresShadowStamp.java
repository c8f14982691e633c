package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.core.publish.SwapStamp;

/**
 * The ownership stamps kept in PostgreSQL table comments. A shadow's comment is exactly
 * {@code dpone-backfill run_key=<runKey>}. After publication the published table's and the backup's comments
 * start with a published or backup stamp line; the live table's own comment, if it had one, follows on the next
 * lines, so that publication and rollback keep it.
 */
public final class PostgresShadowStamp {
    private static final String PREFIX = "dpone-backfill ";
    private static final int MAX_SHOWN = 200;

    private PostgresShadowStamp() {
    }

    /** The stamp leads the comment, marked as ours: the user's own comment may follow it. */
    static String of(SwapStamp stamp, String runKey) {
        return PREFIX + stamp.text(runKey);
    }

    static String shadow(String runKey) {
        return of(SwapStamp.SHADOW, runKey);
    }

    static String published(String runKey) {
        return of(SwapStamp.PUBLISHED, runKey);
    }

    public static String backup(String runKey) {
        return of(SwapStamp.BACKUP, runKey);
    }

    /** A stamp line followed by the table's own comment (none: the stamp alone). */
    static String withUserComment(String stamp, String userComment) {
        return userComment == null ? stamp : stamp + "\n" + userComment;
    }

    /** Whether the comment is a backup's (of any run): a table kept for rollback, not one the user works with. */
    public static boolean isBackup(String comment) {
        return comment != null && comment.startsWith(backup(""));
    }

    public static boolean isShadowOf(String comment, String runKey) {
        return shadow(runKey).equals(comment);
    }

    public static boolean startsWith(String comment, String stamp) {
        return comment != null && (comment.equals(stamp) || comment.startsWith(stamp + "\n"));
    }

    /** The table's own comment after a published or backup stamp line; null when there is none. */
    static String userComment(String comment) {
        if (comment == null) {
            return null;
        }
        int newline = comment.indexOf('\n');
        return newline < 0 ? null : comment.substring(newline + 1);
    }

    /** Who a comment says owns a table, for error messages: the stamp line, bounded, or "no dpone-backfill stamp". */
    public static String describeOwner(String comment) {
        if (comment == null || !comment.startsWith(PREFIX)) {
            return "no dpone-backfill stamp";
        }
        int newline = comment.indexOf('\n');
        String line = newline < 0 ? comment : comment.substring(0, newline);
        return "'" + (line.length() > MAX_SHOWN ? line.substring(0, MAX_SHOWN) + "..." : line) + "'";
    }
}
