package io.dpone.backfill.cli.scratch;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.target.mssql.MssqlEndpoint;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.BiConsumer;

/** How `demo` and `bench` name the SQL Server they load into and the scratch schema they create there. */
public final class SqlServerScratch {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss");

    private SqlServerScratch() {
    }

    /** The server of {@code url} with BACKFILL_MSSQL_USER/PASSWORD; {@code source} names the option or variable. */
    public static ConnectionSettings settings(String url, String source, BiConsumer<Boolean, String> require) {
        require.accept(url.startsWith(MssqlEndpoint.INSTANCE.urlPrefix()),
                source + " must be a SQL Server JDBC URL starting with " + MssqlEndpoint.INSTANCE.urlPrefix());
        return new ConnectionSettings(url, System.getenv("BACKFILL_MSSQL_USER"), System.getenv("BACKFILL_MSSQL_PASSWORD"),
                MssqlEndpoint.INSTANCE);
    }

    /** The given name, checked, or {@code prefix} with the UTC time, so two runs never share a schema. */
    public static String schemaName(String given, String prefix, BiConsumer<Boolean, String> require) {
        if (given == null) {
            return prefix + LocalDateTime.now(ZoneOffset.UTC).format(STAMP);
        }
        require.accept(given.matches("[A-Za-z_][A-Za-z0-9_]{0,62}"),
                "--scratch-schema must be 1-63 letters, digits or underscores, starting with a letter or underscore");
        return given;
    }
}
