package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.core.engine.DatabaseFailureException;
import io.dpone.backfill.core.engine.DatabaseFailureException.Kind;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/** SQL Server's error numbers onto transient (back off, retry) and permanent (a person must act) failures. */
class MssqlFailuresTest {
    @Test
    void deadlocksLockTimeoutsDroppedConnectionsAndAzureTransientsAreTransient() {
        int[] transientNumbers = {1205, 1222, 40613, 40197, 40501, 49918, 49919, 49920, 4060, 10928, 10929, 233,
                10053, 10054};
        for (int number : transientNumbers) {
            assertThat(MssqlFailures.classify(number, "S0001").kind()).as("error %d", number).isEqualTo(Kind.TRANSIENT);
        }
        assertThat(MssqlFailures.classify(1205, "40001").reason()).isEqualTo("Deadlock");
        assertThat(MssqlFailures.classify(1222, "S0001").reason()).isEqualTo("LockTimeout");
        assertThat(MssqlFailures.classify(40613, "S0001").reason()).isEqualTo("ServiceBusy");
        assertThat(MssqlFailures.classify(10054, "08S01").reason()).isEqualTo("ConnectionLost");
    }

    @Test
    void theDriversConnectionStatesWithoutAnErrorNumberAreTransient() {
        assertThat(MssqlFailures.classify(0, "08S01")).isEqualTo(new MssqlFailures.Classified(Kind.TRANSIENT, "ConnectionLost"));
        assertThat(MssqlFailures.classify(0, "HY008")).isEqualTo(new MssqlFailures.Classified(Kind.TRANSIENT, "QueryCancelled"));
        assertThat(MssqlFailures.classify(50000, null)).isEqualTo(new MssqlFailures.Classified(Kind.TRANSIENT, "DatabaseError"));
    }

    @Test
    void permissionsDuplicatesConstraintsTruncationConversionAndMissingObjectsArePermanent() {
        for (int number : new int[] {229, 230, 262}) {
            assertThat(MssqlFailures.classify(number, "S0001")).as("error %d", number)
                    .isEqualTo(new MssqlFailures.Classified(Kind.PERMANENT, "MissingPrivilege"));
        }
        for (int number : new int[] {2627, 2601, 547}) {
            assertThat(MssqlFailures.classify(number, "23000")).as("error %d", number)
                    .isEqualTo(new MssqlFailures.Classified(Kind.PERMANENT, "ConstraintViolation"));
        }
        for (int number : new int[] {8152, 2628, 245, 8114}) {
            assertThat(MssqlFailures.classify(number, "S0001")).as("error %d", number)
                    .isEqualTo(new MssqlFailures.Classified(Kind.PERMANENT, "InvalidData"));
        }
        assertThat(MssqlFailures.classify(208, "S0002")).isEqualTo(new MssqlFailures.Classified(Kind.PERMANENT, "SchemaMismatch"));
    }

    @Test
    void theDomainExceptionKeepsTheMessageTheKindAndTheCause() {
        SQLException cause = new SQLException("Cannot insert duplicate key", "23000", 2627);

        DatabaseFailureException e = MssqlFailures.of("ledger createCampaign failed", cause);

        assertThat(e.isTransient()).isFalse();
        assertThat(e.reason()).isEqualTo("ConstraintViolation");
        assertThat(e).hasMessage("ledger createCampaign failed").hasCause(cause);
    }

    /**
     * Issue 24: the same rows fail the same way on every attempt. 4815 "Received an invalid column length from the bcp
     * client", 4816 invalid column type, 515 NULL into NOT NULL, 241/242 date/time conversion or range, 8115/220
     * arithmetic overflow, 8152/2628 truncation.
     */
    @Test
    void deterministicDataAndBulkCopyErrorsArePermanent() {
        for (int number : new int[] {4815, 4816, 515, 241, 242, 8115, 220, 8152, 2628, 245, 2627, 2601}) {
            assertThat(MssqlFailures.classify(number, "S0001").kind()).as("error %d", number).isEqualTo(Kind.PERMANENT);
        }
        assertThat(MssqlFailures.classify(4815, "S0001").reason()).isEqualTo("BulkColumnRefused");
        assertThat(MssqlFailures.classify(515, "23000").reason()).isEqualTo("ConstraintViolation");
        assertThat(MssqlFailures.classify(8115, "22003").reason()).isEqualTo("InvalidData");
    }

    /**
     * Azure SQL Database's 40197 embeds the error that caused it ("... Please try again. Error code %d."; Azure SQL
     * docs, "SQL error codes for SQL Database client applications"): a wrapped deterministic error is permanent, the
     * failovers it documents (40020, 40143, 40166, 40540) and a bare 40197 stay transient.
     */
    @Test
    void azure40197IsJudgedByTheErrorItWraps() {
        String wrapped = "The service has encountered an error processing your request. Please try again. Error code 4815.";
        assertThat(MssqlFailures.classify(40197, "S0001", wrapped))
                .isEqualTo(new MssqlFailures.Classified(Kind.PERMANENT, "BulkColumnRefused"));
        assertThat(MssqlFailures.of("load chunk 7", new SQLException(wrapped, "S0001", 40197)).isTransient()).isFalse();
        for (int failover : new int[] {40020, 40143, 40166, 40540}) {
            assertThat(MssqlFailures.classify(40197, "S0001", "The service has encountered an error processing your"
                    + " request. Please try again. Error code " + failover + ".").kind()).as("inner %d", failover)
                    .isEqualTo(Kind.TRANSIENT);
        }
        assertThat(MssqlFailures.classify(40197, "S0001", "The service has encountered an error.").kind())
                .isEqualTo(Kind.TRANSIENT);
        assertThat(MssqlFailures.classify(40197, "S0001", null).reason()).isEqualTo("ServiceBusy");
    }
}
