package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.core.engine.DatabaseFailureException.Kind;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HexFormat;

/**
 * An application lock ({@code sp_getapplock}) owned by the session, so it does not depend on the driver having
 * opened a transaction yet (a Transaction-owned lock outside one is refused). Names longer than the 255 characters
 * {@code @Resource} holds are cut to a readable head plus the SHA-256 of the whole name, because SQL Server would
 * silently truncate them and two long names with a common head would share one lock. Any result below zero is a
 * failure: SQL Server returns -1 on timeout, Babelfish -999 for the same conflict.
 */
public final class MssqlAppLock {
    public static final int MAX_NAME_LENGTH = 255;
    private static final int HASH_HEX = 64;

    // No SET NOCOUNT here: it would stay on for the session and hide every later statement's row count.
    private static final String ACQUIRE = "DECLARE @result int;"
            + " EXEC @result = sys.sp_getapplock @Resource = ?, @LockMode = N'Exclusive', @LockOwner = N'Session',"
            + " @LockTimeout = ?; SELECT @result AS result";
    // Transaction-owned: released by COMMIT or ROLLBACK, so a crash or a failed swap can never leave it held.
    private static final String ACQUIRE_IN_TRANSACTION = "DECLARE @result int;"
            + " EXEC @result = sys.sp_getapplock @Resource = ?, @LockMode = N'Exclusive', @LockOwner = N'Transaction',"
            + " @LockTimeout = ?; SELECT @result AS result";
    private static final String RELEASE = "DECLARE @result int;"
            + " EXEC @result = sys.sp_releaseapplock @Resource = ?, @LockOwner = N'Session'; SELECT @result AS result";

    private MssqlAppLock() {
    }

    /** The resource name SQL Server will see: {@code name} itself when it fits, else head + '#' + SHA-256 hex. */
    public static String resourceName(String name) {
        if (name.length() <= MAX_NAME_LENGTH) {
            return name;
        }
        int head = MAX_NAME_LENGTH - 1 - HASH_HEX;
        if (Character.isHighSurrogate(name.charAt(head - 1))) {
            head--;
        }
        return name.substring(0, head) + "#" + sha256(name);
    }

    /** {@code sp_getapplock}'s documented rule: 0 and 1 grant the lock, every negative result refuses it. */
    public static boolean granted(int result) {
        return result >= 0;
    }

    /**
     * Takes the exclusive session lock, waiting at most {@code timeout}; throws a transient failure naming the
     * result when it is not granted. Release it with {@link #release(Connection, String)}.
     */
    public static void acquire(Connection connection, String name, Duration timeout) throws SQLException {
        int result = call(connection, ACQUIRE, resourceName(name), Math.toIntExact(timeout.toMillis()));
        if (!granted(result)) {
            throw new DatabaseFailureException(Kind.TRANSIENT, "LockNotGranted", "application lock " + name
                    + " was not granted within " + timeout.toMillis() + " ms (sp_getapplock returned " + result
                    + ": " + meaning(result) + ")", null);
        }
    }

    /**
     * Tries the exclusive session lock without waiting ({@code @LockTimeout = 0}): true when granted, false for any
     * result below zero (SQL Server answers -1 to a held lock, Babelfish -999). Release it with {@link #release}.
     */
    public static boolean tryAcquire(Connection connection, String name) throws SQLException {
        return granted(call(connection, ACQUIRE, resourceName(name), 0));
    }

    /**
     * Takes the exclusive lock owned by the caller's open transaction ({@code @LockOwner = 'Transaction'}, which
     * SQL Server refuses outside one), waiting at most {@code timeout}; it ends with the transaction. A result
     * below zero throws the same transient failure as {@link #acquire}.
     */
    public static void acquireInTransaction(Connection connection, String name, Duration timeout) throws SQLException {
        int result = call(connection, ACQUIRE_IN_TRANSACTION, resourceName(name), Math.toIntExact(timeout.toMillis()));
        if (!granted(result)) {
            throw new DatabaseFailureException(Kind.TRANSIENT, "LockNotGranted", "application lock " + name
                    + " was not granted within " + timeout.toMillis() + " ms (sp_getapplock returned " + result
                    + ": " + meaning(result) + ")", null);
        }
    }

    /** Releases the session lock; a lock that is not held (connection reset) is not an error here. */
    public static void release(Connection connection, String name) throws SQLException {
        call(connection, RELEASE, resourceName(name), null);
    }

    static String meaning(int result) {
        return switch (result) {
            case -1 -> "timed out";
            case -2 -> "cancelled";
            case -3 -> "chosen as deadlock victim";
            case -999 -> "parameter or call error; Babelfish also reports a conflict this way";
            default -> "refused";
        };
    }

    private static int call(Connection connection, String sql, String resource, Integer timeoutMillis)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, resource);
            if (timeoutMillis != null) {
                ps.setInt(2, timeoutMillis);
            }
            // The procedure may report row counts before the SELECT: skip to the first result set.
            for (boolean isResultSet = ps.execute(); isResultSet || ps.getUpdateCount() != -1;
                 isResultSet = ps.getMoreResults()) {
                if (isResultSet) {
                    try (ResultSet rs = ps.getResultSet()) {
                        if (rs.next()) {
                            return rs.getInt("result");
                        }
                    }
                }
            }
            throw new SQLException("sp_getapplock/sp_releaseapplock returned no result for " + resource);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
