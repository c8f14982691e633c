package io.dpone.backfill.target.mssql;

import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.core.engine.DatabaseFailureException.Kind;

import java.sql.SQLException;

/**
 * SQL Server's error numbers onto the domain's failure kinds, in one place for the ledger, the chunk commit and the
 * publisher. Transient: deadlock victim, lock timeout, a dropped connection, and the errors Azure SQL documents as
 * worth a retry (reconfiguration, throttling, resource limits). Permanent: permissions, duplicate keys, constraints,
 * truncation, conversion, missing objects. An unknown number is transient, as on PostgreSQL: a retry costs little
 * and a person still sees the message.
 */
public final class MssqlFailures {
    private MssqlFailures() {
    }

    public record Classified(Kind kind, String reason) {
    }

    /**
     * @param errorNumber {@link SQLException#getErrorCode()} of the driver's exception (SQL Server's error number)
     * @param sqlState    its SQL state; the driver reports a lost connection as class 08 with error number 0
     */
    public static Classified classify(int errorNumber, String sqlState) {
        return switch (errorNumber) {
            case 1205 -> transientFailure("Deadlock");
            case 1222 -> transientFailure("LockTimeout");
            case 233, 10053, 10054 -> transientFailure("ConnectionLost");
            // Azure SQL: database unavailable or being moved, service busy, resource limits reached.
            case 4060, 40197, 40501, 40613, 49918, 49919, 49920, 10928, 10929 -> transientFailure("ServiceBusy");
            case 229, 230, 262 -> permanent("MissingPrivilege");
            case 2627, 2601, 547 -> permanent("ConstraintViolation");
            case 8152, 2628, 245, 8114 -> permanent("InvalidData");
            case 208 -> permanent("SchemaMismatch");
            default -> sqlState != null && sqlState.startsWith("08") ? transientFailure("ConnectionLost")
                    : "HY008".equals(sqlState) ? transientFailure("QueryCancelled")
                    : transientFailure("DatabaseError");
        };
    }

    /** The domain exception for a failed call, its message naming what was being done. */
    public static DatabaseFailureException of(String message, SQLException cause) {
        Classified c = classify(cause.getErrorCode(), cause.getSQLState());
        return new DatabaseFailureException(c.kind(), c.reason(), message, cause);
    }

    private static Classified transientFailure(String reason) {
        return new Classified(Kind.TRANSIENT, reason);
    }

    private static Classified permanent(String reason) {
        return new Classified(Kind.PERMANENT, reason);
    }
}
