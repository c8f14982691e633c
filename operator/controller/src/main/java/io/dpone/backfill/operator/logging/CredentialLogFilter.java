package io.dpone.backfill.operator.logging;

import io.dpone.backfill.redaction.CredentialScrubber;
import io.quarkus.logging.LoggingFilter;
import org.jboss.logmanager.ExtLogRecord;

import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

/**
 * The operator's log, scrubbed of credentials (ADR 0043): the message as it will be printed and every message of
 * the exception logged with it. It runs on every record the console handler prints
 * ({@code quarkus.log.console.filter}), the operator's own and its libraries' alike (pgjdbc logs a URL it cannot
 * parse at WARNING). It never drops a record.
 */
@LoggingFilter(name = CredentialLogFilter.NAME)
public final class CredentialLogFilter implements Filter {
    public static final String NAME = "credential-scrubber";
    private static final SimpleFormatter JUL = new SimpleFormatter();

    @Override
    public boolean isLoggable(LogRecord record) {
        String formatted = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : JUL.formatMessage(record);
        String scrubbed = CredentialScrubber.scrub(formatted);
        if (formatted != null && !formatted.equals(scrubbed)) {
            // Formatted once here, so the parameters (where the credential was) are not formatted in again.
            if (record instanceof ExtLogRecord ext) {
                ext.setMessage(scrubbed, ExtLogRecord.FormatStyle.NO_FORMAT);
            } else {
                record.setMessage(scrubbed);
            }
            record.setParameters(null);
        }
        if (record.getThrown() != null) {
            record.setThrown(ScrubbedThrowable.of(record.getThrown()));
        }
        return true;
    }
}
