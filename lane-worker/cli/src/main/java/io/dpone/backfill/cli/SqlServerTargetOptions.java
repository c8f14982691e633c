package io.dpone.backfill.cli;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.connect.DatabaseEndpoint;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.wiring.Connectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The options `demo` and `bench` share for loading into a SQL Server: the server (`--target-url`, else
 * BACKFILL_MSSQL_URL; user and password from BACKFILL_MSSQL_USER and BACKFILL_MSSQL_PASSWORD) and the scratch schema
 * they create there. Both are checked before anything starts; a bad one is named.
 */
public final class SqlServerTargetOptions {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss");

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--target-url", description = "A SQL Server to load into (jdbc:sqlserver://...); user and password from"
            + " BACKFILL_MSSQL_USER and BACKFILL_MSSQL_PASSWORD. Default: BACKFILL_MSSQL_URL, else an embedded PostgreSQL.")
    String targetUrl;

    @Option(names = "--scratch-schema", description = "Name of the SQL Server scratch schema (must not exist;"
            + " default backfill_${COMMAND-NAME}_<UTC time>).")
    public String scratchSchema;

    /** The SQL Server to load into, or null for the embedded PostgreSQL. */
    public ConnectionSettings server() {
        String url = targetUrl != null ? targetUrl : System.getenv("BACKFILL_MSSQL_URL");
        if (url == null || url.isBlank()) {
            return null;
        }
        DatabaseEndpoint sqlServer = Connectors.target(TargetType.MSSQL).endpoint();
        require(url.startsWith(sqlServer.urlPrefix()), (targetUrl != null ? "--target-url" : "BACKFILL_MSSQL_URL")
                + " must be a SQL Server JDBC URL starting with " + sqlServer.urlPrefix());
        return new ConnectionSettings(url, System.getenv("BACKFILL_MSSQL_USER"), System.getenv("BACKFILL_MSSQL_PASSWORD"),
                sqlServer);
    }

    /** The given name, checked, or backfill_<command>_<UTC time>, so two runs never share a schema. */
    public String scratchSchema() {
        if (scratchSchema == null) {
            return "backfill_" + command.name() + "_" + LocalDateTime.now(ZoneOffset.UTC).format(STAMP);
        }
        require(scratchSchema.matches("[A-Za-z_][A-Za-z0-9_]{0,62}"),
                "--scratch-schema must be 1-63 letters, digits or underscores, starting with a letter or underscore");
        return scratchSchema;
    }

    /** A usage error (exit 2) naming the option, raised before the command starts anything. */
    public void require(boolean condition, String message) {
        if (!condition) {
            throw new CommandLine.ParameterException(command.commandLine(), message);
        }
    }
}
