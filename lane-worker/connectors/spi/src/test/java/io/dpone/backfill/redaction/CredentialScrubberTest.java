package io.dpone.backfill.redaction;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The patterns alone (no value is remembered under these passwords): every URL form the two drivers accept and every
 * message form they were seen to print, with the password removed and the rest of the text kept.
 *
 * <p>Where the forms come from. pgjdbc 42.7.10, {@code org.postgresql.Driver.parseURL}: arguments after {@code ?}
 * split at {@code &}, each value URL-decoded, a value that does not decode ({@code %zz}) makes the URL unparseable;
 * the authority is split at {@code ,}, {@code /} and the last {@code :} only, so {@code user:password@host} is taken
 * for a host name (and echoed as one); {@code Driver.connect} then throws "Unable to parse URL {0}" with the whole URL,
 * and {@code PGPropertyUtil.convertPgPortToInt} logs "JDBC URL invalid port number: {0}"; {@code PGProperty} names
 * {@code password} and {@code sslpassword}. mssql-jdbc 13.2.1, {@code Util.parseUrl}: {@code name=value} pairs after
 * {@code ;}, names trimmed and case-insensitive ({@code SQLServerDriver.getNormalizedPropertyName}, synonym
 * {@code userName} for {@code user}), a value in braces may hold {@code ;} and escapes {@code }} as {@code }}}; its
 * secret properties are {@code password}, {@code trustStorePassword}, {@code keyStoreSecret},
 * {@code clientKeyPassword}, {@code AADSecurePrincipalSecret} and {@code accessToken}.
 */
class CredentialScrubberTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "pgjdbc query|jdbc:postgresql://db.example:5432/app?user=loader&password=Pat1-q9Zr&sslmode=require|Pat1-q9Zr",
            "pgjdbc unparseable value|Unable to parse URL jdbc:postgresql://127.0.0.1:1/db?user=u&password=Pat2-x7%zz|Pat2-x7",
            "pgjdbc ssl key password|jdbc:postgresql://h/db?sslmode=verify-full&sslpassword=Pat3-k8Lm&sslkey=/k.pk8|Pat3-k8Lm",
            "pgjdbc password first|jdbc:postgresql://h/db?password=Pat4-m1Qx|Pat4-m1Qx",
            "pgjdbc authority|jdbc:postgresql://loader:Pat5-n2Wy@db.example:5432/app|Pat5-n2Wy",
            "authority with @ in the password|jdbc:postgresql://loader:Pat6@r3Vs@db.example/app|Pat6@r3Vs",
            "pgjdbc host echo|java.net.UnknownHostException: loader:Pat7-s4Tu@127.0.0.1|Pat7-s4Tu",
            "mssql property|jdbc:sqlserver://db.example:1433;user=loader;password=Pat8-t5Uv;encrypt=true|Pat8-t5Uv",
            "mssql upper case key|jdbc:sqlserver://db.example;databaseName=app;PASSWORD=Pat9-u6Vw|Pat9-u6Vw",
            "mssql spaces round =|jdbc:sqlserver://db.example;Password = Pat10-v7Wx ;user=loader|Pat10-v7Wx",
            "mssql braced with ;|jdbc:sqlserver://db.example;password={Pat11;w8Xy};user=loader|w8Xy",
            "mssql braced with }}|jdbc:sqlserver://db.example;password={Pat12}}x9Yz};user=loader|x9Yz",
            "mssql unterminated brace|jdbc:sqlserver://db.example;user=u;password={Pat13-y0Za|Pat13-y0Za",
            "mssql trust store|jdbc:sqlserver://h;trustStore=/ts.jks;trustStorePassword=Pat14-z1Ab|Pat14-z1Ab",
            "mssql key store secret|jdbc:sqlserver://h;keyStoreAuthentication=JavaKeyStorePassword;keyStoreSecret=Pat15-a2Bc|Pat15-a2Bc",
            "mssql client key|jdbc:sqlserver://h;clientCertificate=/c.pem;clientKeyPassword=Pat16-b3Cd|Pat16-b3Cd",
            "mssql AAD secret|jdbc:sqlserver://h;authentication=ActiveDirectoryServicePrincipal;AADSecurePrincipalSecret=Pat17-c4De|Pat17-c4De",
            "mssql access token|jdbc:sqlserver://h;accessToken=Pat18-d5Ef|Pat18-d5Ef",
            "ODBC-style pwd|Server=h;Uid=loader;Pwd=Pat19-e6Fg;|Pat19-e6Fg",
            "in a JSON document|{\"last_error\" : \"cannot connect: jdbc:postgresql://h/db?password=Pat20-f7Gh\"}|Pat20-f7Gh",
            "beside a secrets file|backfill run --secrets=s.yaml --target-url jdbc:postgresql://h/db?password=Pat30-x1Yz|Pat30-x1Yz",
    })
    void aCredentialInAnyUrlOrMessageFormIsMasked(String form, String text, String password) {
        String scrubbed = CredentialScrubber.scrub(text);

        assertThat(scrubbed).as(form).doesNotContain(password).contains(CredentialScrubber.MASK);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "pgjdbc|jdbc:postgresql://db.example:5432/app?user=loader&password=Pat21-g8Hi&sslmode=require"
                    + "|jdbc:postgresql://db.example:5432/app?user=loader&password=***&sslmode=require",
            "authority|jdbc:postgresql://loader:Pat22-h9Ij@db.example/app|jdbc:postgresql://loader:***@db.example/app",
            "mssql|jdbc:sqlserver://h:1433;userName=loader;password={Pat23;i0Jk};encrypt=true"
                    + "|jdbc:sqlserver://h:1433;userName=loader;password=***;encrypt=true",
    })
    void theKeyTheUserAndEveryOtherSettingStaySoTheMessageStillSaysWhatWasWrong(String form, String text, String expected) {
        assertThat(CredentialScrubber.scrub(text)).as(form).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "FATAL: password authentication failed for user \"loader\"",
            "Connection to 127.0.0.1:1 refused. Check that the hostname and port are correct",
            "The TCP/IP connection to the host 127.0.0.1, port 1 has failed.",
            "jdbc:postgresql://db.example:5432/app?user=loader&sslmode=require",
            "lane 0: exiting (DONE) at 12:30:01.250",
            "kubectl annotate bfc items -n ns --overwrite backfill.dpone.io/requeue-failed=$(date +%s)",
            "Secret ns/src-db is not labelled backfill.dpone.io/campaign-use=true",
            "Usage: backfill run [-hV] [--secrets=FILE]... CAMPAIGN",
            "next: backfill resume --secrets=prod-db-secrets.yaml orders.yaml",
            "backfill generate --source-secret=src-db --target-secret=dst-db --out=campaigns",
            "spec.source.connectionSecretRef=src-db names no Secret; secretName=src-db",
    })
    void textWithoutACredentialIsLeftAsItIs(String text) {
        assertThat(CredentialScrubber.scrub(text)).isEqualTo(text);
    }
}
