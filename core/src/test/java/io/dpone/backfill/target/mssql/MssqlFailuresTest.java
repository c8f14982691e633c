package io.dpone.backfill.target.mssql;

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
}
