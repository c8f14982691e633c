package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.redaction.CredentialScrubber;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * mssql-jdbc's own URL parsing failures, offline: each fails in the driver before any network. mssql-jdbc 13.2.1
 * {@code Util.parseUrl} reads the server name up to {@code ;}, {@code :} or {@code \}, then the port up to {@code ;};
 * a server name holding {@code =} is refused as "The serverName connection property value {0} is badly formed", and
 * {@code SQLServerConnection} refuses a port that is no number as "The port number {0} is not valid". So a
 * {@code user:password@host:port} authority (a form this driver does not know) quotes the password as a port, and a
 * URL that begins with its properties quotes the first one as a server name.
 */
class MssqlConnectionErrorsTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "authority form|jdbc:sqlserver://sa:MsE1-Pa55-XYZ@127.0.0.1:1433;databaseName=app|MsE1-Pa55-XYZ|port number",
            "properties first|jdbc:sqlserver://password=MsE2-Pa55-XYZ;databaseName=app|MsE2-Pa55-XYZ|badly formed",
            "port not a number|jdbc:sqlserver://127.0.0.1:notaport;user=sa;password=MsE3-Pa55-XYZ|MsE3-Pa55-XYZ|port number",
            "port out of range|jdbc:sqlserver://127.0.0.1:99999;user=sa;password={MsE4;Pa55}}XYZ}|Pa55|port number",
            "unterminated brace|jdbc:sqlserver://127.0.0.1:1;user=sa;password={MsE5-Pa55-XYZ|MsE5-Pa55-XYZ|badly formed",
    })
    void aUrlTheDriverRefusesLeavesNoPasswordInTheMessageOrTheTrace(String label, String url, String password, String driverSays) {
        ConnectionSettings settings = new ConnectionSettings(url, "sa", "MsE-Property-Pa55", MssqlEndpoint.INSTANCE);

        SQLException e = catchThrowableOfType(SQLException.class, () -> settings.open("backfill-test"));

        assertThat(e.getMessage()).as(label).contains(driverSays).doesNotContain(password).doesNotContain("MsE-Property-Pa55");
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        assertThat(CredentialScrubber.scrub(trace.toString())).as(label + ": the stack trace, as stderr prints it")
                .doesNotContain(password).doesNotContain("MsE-Property-Pa55");
    }
}
