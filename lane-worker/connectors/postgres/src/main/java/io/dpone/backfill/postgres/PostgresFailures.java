package io.dpone.backfill.postgres;

import io.dpone.backfill.core.engine.DatabaseFailureException.Kind;
import io.dpone.backfill.core.engine.DatabaseFailureException;

import java.sql.SQLException;

/**
 * PostgreSQL's SQLSTATEs onto the domain's failure kinds, in one place for the ledger, the chunk commit and the
 * publisher. An unknown state is transient: a retry costs little and a person still sees the message.
 */
public final class PostgresFailures {
    private PostgresFailures() {
    }

    record Classified(Kind kind, String reason) {
    }

    static Classified classify(String sqlState) {
        if (sqlState == null) {
            return new Classified(Kind.TRANSIENT, "DatabaseError");
        }
        if (sqlState.startsWith("08")) {
            return new Classified(Kind.TRANSIENT, "ConnectionLost");
        }
        return switch (sqlState) {
            case "55P03" -> new Classified(Kind.TRANSIENT, "LockTimeout");
            case "40001", "40P01" -> new Classified(Kind.TRANSIENT, "SerializationFailure");
            case "57014" -> new Classified(Kind.TRANSIENT, "QueryCancelled");
            case "57P01", "57P02", "57P03" -> new Classified(Kind.TRANSIENT, "ServerRestarting");
            case "53000", "53100", "53200", "53300" -> new Classified(Kind.TRANSIENT, "InsufficientResources");
            case "42501" -> new Classified(Kind.PERMANENT, "MissingPrivilege");
            default -> sqlState.startsWith("42") ? new Classified(Kind.PERMANENT, "SchemaMismatch")
                    : sqlState.startsWith("22") ? new Classified(Kind.PERMANENT, "InvalidData")
                    : sqlState.startsWith("23") ? new Classified(Kind.PERMANENT, "ConstraintViolation")
                    : new Classified(Kind.TRANSIENT, "DatabaseError");
        };
    }

    /** Whether PostgreSQL's SQLSTATE says the same statement on the same data fails the same way again. */
    public static boolean isPermanent(SQLException e) {
        return classify(e.getSQLState()).kind() == Kind.PERMANENT;
    }

    /** The domain exception for a failed call, its message naming what was being done. */
    public static DatabaseFailureException of(String message, SQLException cause) {
        Classified c = classify(cause.getSQLState());
        return new DatabaseFailureException(c.kind(), c.reason(), message, cause);
    }
}
