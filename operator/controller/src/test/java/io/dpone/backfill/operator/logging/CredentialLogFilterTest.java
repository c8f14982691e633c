package io.dpone.backfill.operator.logging;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

import static org.assertj.core.api.Assertions.assertThat;

class CredentialLogFilterTest {
    private final CredentialLogFilter filter = new CredentialLogFilter();

    private static String trace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    @Test
    void theOperatorsOwnPrintfStyleRecordIsScrubbedAndItsExceptionPrintsWithoutThePassword() {
        // As CampaignDriver logs a failed pass: LOG.warnf(e, "pass on campaign %s/%s failed", ...).
        SQLException driver = new SQLException("Unable to parse URL jdbc:postgresql://h/db?user=u&password=Lf1-Pa55-XYZ%zz");
        IllegalStateException failure = new IllegalStateException("cannot connect: jdbc:postgresql://u:Lf2-Pa55@h/db", driver);
        ExtLogRecord record = new ExtLogRecord(Level.WARNING, "pass on campaign %s failed: %s", ExtLogRecord.FormatStyle.PRINTF,
                CredentialLogFilterTest.class.getName());
        record.setParameters(new Object[]{"ns/items", driver.getMessage()});
        record.setThrown(failure);

        assertThat(filter.isLoggable(record)).isTrue();

        assertThat(record.getFormattedMessage()).isEqualTo("pass on campaign ns/items failed: Unable to parse URL"
                + " jdbc:postgresql://h/db?user=u&password=***");
        String trace = trace(record.getThrown());
        assertThat(trace).doesNotContain("Lf1").doesNotContain("Lf2")
                .contains("java.lang.IllegalStateException: cannot connect: jdbc:postgresql://u:***@h/db")
                .contains("Caused by: java.sql.SQLException: Unable to parse URL").contains("CredentialLogFilterTest");
    }

    @Test
    void aLibrarysJavaUtilLoggingRecordIsScrubbed() {
        // pgjdbc 42.7.10 Driver.parseURL: LOGGER.log(Level.WARNING, "JDBC URL contains too many / characters: {0}", url)
        LogRecord record = new LogRecord(Level.WARNING, "JDBC URL contains too many / characters: {0}");
        record.setParameters(new Object[]{"jdbc:postgresql://h:1//db?password=Lf3-Pa55-XYZ"});

        filter.isLoggable(record);

        assertThat(new SimpleFormatter().formatMessage(record)).doesNotContain("Lf3").endsWith("password=***");
    }

    @Test
    void aRecordWithNothingToScrubIsLeftAsItIs() {
        RuntimeException plain = new RuntimeException("lane pod items-0 failed");
        ExtLogRecord record = new ExtLogRecord(Level.INFO, "campaign %s", ExtLogRecord.FormatStyle.PRINTF, "x");
        record.setParameters(new Object[]{"items"});
        record.setThrown(plain);

        filter.isLoggable(record);

        assertThat(record.getParameters()).containsExactly("items");
        assertThat(record.getThrown()).isSameAs(plain);
    }
}
