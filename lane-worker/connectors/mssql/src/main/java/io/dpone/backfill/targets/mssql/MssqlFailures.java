package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.core.engine.DatabaseFailureException.Kind;

import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SQL Server's error numbers onto the domain's failure kinds, in one place for the ledger, the chunk commit and the
 * publisher. Transient: deadlock victim, lock timeout, a dropped connection, and the errors Azure SQL documents as
 * worth a retry (reconfiguration, throttling, resource limits). Permanent: permissions, duplicate keys, constraints,
 * truncation, conversion, overflow, a bulk copy column the server refuses, missing objects: the same rows fail the
 * same way on every attempt, so retrying them only burns the chunk's attempts. An unknown number is transient, as on
 * PostgreSQL: a retry costs little and a person still sees the message.
 * <p>
 * Azure's 40197 ("The service has encountered an error processing your request. Please try again. Error code %d.")
 * carries the real error in its message (Azure SQL Database docs, "SQL error codes for SQL Database client
 * applications", transient fault error codes: "The error code (%d) embedded within the message of error 40197
 * provides additional information"): that inner number is classified instead, so a deterministic error wrapped in
 * it (issue 24: 4815 from a bulk copy) is permanent, while the failovers it usually carries (40020, 40143, 40166,
 * 40540) stay transient.
 */
public final class MssqlFailures {
    private static final int AZURE_SERVICE_ERROR = 40197;
    private static final Pattern EMBEDDED_CODE = Pattern.compile("Error code (\\d+)");

    private MssqlFailures() {
    }

    public record Classified(Kind kind, String reason) {
    }

    /**
     * @param errorNumber {@link SQLException#getErrorCode()} of the driver's exception (SQL Server's error number)
     * @param sqlState    its SQL state; the driver reports a lost connection as class 08 with error number 0
     */
    public static Classified classify(int errorNumber, String sqlState) {
        return classify(errorNumber, sqlState, null);
    }

    /** As {@link #classify(int, String)}; {@code message} is read for the error a 40197 wraps. */
    public static Classified classify(int errorNumber, String sqlState, String message) {
        if (errorNumber == AZURE_SERVICE_ERROR && message != null) {
            Matcher inner = EMBEDDED_CODE.matcher(message);
            if (inner.find()) {
                int wrapped = Integer.parseInt(inner.group(1));
                if (wrapped != AZURE_SERVICE_ERROR && classifyNumber(wrapped, null).kind() == Kind.PERMANENT) {
                    return classifyNumber(wrapped, null);
                }
            }
        }
        return classifyNumber(errorNumber, sqlState);
    }

    private static Classified classifyNumber(int errorNumber, String sqlState) {
        return switch (errorNumber) {
            case 1205 -> transientFailure("Deadlock");
            case 1222 -> transientFailure("LockTimeout");
            case 233, 10053, 10054 -> transientFailure("ConnectionLost");
            // Azure SQL: database unavailable or being moved, service busy, resource limits reached.
            case 4060, 40197, 40501, 40613, 49918, 49919, 49920, 10928, 10929 -> transientFailure("ServiceBusy");
            case 229, 230, 262 -> permanent("MissingPrivilege");
            case 2627, 2601, 547 -> permanent("ConstraintViolation");
            case 8152, 2628, 245, 8114 -> permanent("InvalidData");
            // 515 NULL into NOT NULL; 241/242 date/time conversion and range; 8115 and 220 arithmetic overflow;
            // 4815/4816 a column length or type the bulk copy's INSERT BULK declared that its data does not match.
            case 515 -> permanent("ConstraintViolation");
            case 241, 242, 8115, 220 -> permanent("InvalidData");
            case 4815, 4816 -> permanent("BulkColumnRefused");
            case 208 -> permanent("SchemaMismatch");
            default -> sqlState != null && sqlState.startsWith("08") ? transientFailure("ConnectionLost")
                    : "HY008".equals(sqlState) ? transientFailure("QueryCancelled")
                    : transientFailure("DatabaseError");
        };
    }

    /** The domain exception for a failed call, its message naming what was being done. */
    public static DatabaseFailureException of(String message, SQLException cause) {
        Classified c = classify(cause.getErrorCode(), cause.getSQLState(), cause.getMessage());
        return new DatabaseFailureException(c.kind(), c.reason(), message, cause);
    }

    private static Classified transientFailure(String reason) {
        return new Classified(Kind.TRANSIENT, reason);
    }

    private static Classified permanent(String reason) {
        return new Classified(Kind.PERMANENT, reason);
    }
}
