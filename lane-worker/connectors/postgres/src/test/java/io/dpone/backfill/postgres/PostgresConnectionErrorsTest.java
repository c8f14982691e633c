package io.dpone.backfill.postgres;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.redaction.CredentialScrubber;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * pgjdbc's own failures for URLs a Secret may hold, no server needed (nothing listens on 127.0.0.1:1). What pgjdbc
 * 42.7.10 does with them ({@code org.postgresql.Driver}): {@code connect} throws "Unable to parse URL {0}" with the
 * whole URL when {@code parseURL} returns null, which it does for a query value that does not URL-decode
 * ({@code %zz}) and, through {@code PGPropertyUtil.propertiesConsistencyCheck}, for a port that is not a number; it
 * takes a {@code user:password@} authority for a host (the authority is split at the last {@code :} only), so the
 * password becomes the "port" (logged: "JDBC URL invalid port number: {0}", java.util.logging WARNING) or part of a
 * host name (UnknownHostException, the cause of "The connection attempt failed.").
 *
 * <p>Checked: the message every caller prints, the stack trace as the scrubbing channels print it, and what the
 * driver logs as those channels print it.
 */
class PostgresConnectionErrorsTest {
    private static final Logger PGJDBC = Logger.getLogger("org.postgresql");
    private final List<LogRecord> logged = new ArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            logged.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureTheDriversLog() {
        PGJDBC.addHandler(capture);
    }

    @AfterEach
    void release() {
        PGJDBC.removeHandler(capture);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "password not URL-encoded|jdbc:postgresql://127.0.0.1:1/app?user=loader&password=PgE1-Pa55-XYZ%zz|PgE1-Pa55-XYZ|Unable to parse URL",
            "port not a number|jdbc:postgresql://127.0.0.1:notaport/app?user=loader&password=PgE2-Pa55-XYZ|PgE2-Pa55-XYZ|Unable to parse URL",
            "authority without a port|jdbc:postgresql://loader:PgE3-Pa55-XYZ@127.0.0.1/app|PgE3-Pa55-XYZ|Unable to parse URL",
            "authority with a port|jdbc:postgresql://loader:PgE4-Pa55-XYZ@127.0.0.1:1/app|PgE4-Pa55-XYZ|connection attempt failed",
            "unreachable host|jdbc:postgresql://127.0.0.1:1/app?password=PgE5-Pa55-XYZ&sslpassword=PgE5-Key-Pa55|PgE5|refused",
    })
    void aUrlTheDriverRefusesOrCannotReachLeavesNoPasswordInTheMessageTheTraceOrTheLog(String label, String url, String password,
                                                                                       String driverSays) {
        ConnectionSettings settings = new ConnectionSettings(url, "loader", "PgE-Property-Pa55", PostgresEndpoint.INSTANCE);

        SQLException e = catchThrowableOfType(SQLException.class, () -> settings.open("backfill-test"));

        assertThat(e.getMessage()).as(label).contains(driverSays).doesNotContain(password).doesNotContain("PgE-Property-Pa55");
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        assertThat(CredentialScrubber.scrub(trace.toString())).as(label + ": the stack trace, as stderr prints it")
                .doesNotContain(password).doesNotContain("PgE-Property-Pa55");
        SimpleFormatter format = new SimpleFormatter();
        for (LogRecord r : logged) {
            if (r.getLevel().intValue() >= Level.INFO.intValue()) {
                assertThat(CredentialScrubber.scrub(format.format(r))).as(label + ": the driver's log, as stderr prints it")
                        .doesNotContain(password);
            }
        }
    }
}
