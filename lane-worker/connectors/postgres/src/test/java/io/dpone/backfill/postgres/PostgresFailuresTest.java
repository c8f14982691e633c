package io.dpone.backfill.postgres;

import io.dpone.backfill.core.engine.DatabaseFailureException.Kind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** PostgreSQL's SQLSTATEs onto transient (back off, retry) and permanent (a person must act) failures. */
public class PostgresFailuresTest {
    @Test
    void connectionLocksSerializationAndRestartsAreTransient() {
        for (String state : new String[]{"08006", "08001", "55P03", "40001", "40P01", "57014", "57P01", "57P03", "53300", null, "XX000"}) {
            assertThat(PostgresFailures.classify(state).kind()).as(state).isEqualTo(Kind.TRANSIENT);
        }
        assertThat(PostgresFailures.classify("57P01").reason()).isEqualTo("ServerRestarting");
        assertThat(PostgresFailures.classify("08006").reason()).isEqualTo("ConnectionLost");
    }

    @Test
    void privilegesSchemaDataAndConstraintsArePermanentWithAReasonAPersonCanActOn() {
        assertThat(PostgresFailures.classify("42501")).isEqualTo(new PostgresFailures.Classified(Kind.PERMANENT, "MissingPrivilege"));
        assertThat(PostgresFailures.classify("42P01")).isEqualTo(new PostgresFailures.Classified(Kind.PERMANENT, "SchemaMismatch"));
        assertThat(PostgresFailures.classify("22003")).isEqualTo(new PostgresFailures.Classified(Kind.PERMANENT, "InvalidData"));
        assertThat(PostgresFailures.classify("23505")).isEqualTo(new PostgresFailures.Classified(Kind.PERMANENT, "ConstraintViolation"));
    }
}
