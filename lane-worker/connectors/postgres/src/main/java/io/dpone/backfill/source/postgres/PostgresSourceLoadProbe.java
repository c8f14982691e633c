package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.source.SourceLoad;
import io.dpone.backfill.core.source.SourceLoadProbe;
import io.dpone.backfill.postgres.PostgresFailures;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The source's load as its primary reports it (issue 28), in one statement:
 * <ul>
 *     <li>replica lag: {@code pg_stat_replication}'s {@code replay_lag} (an interval; {@code flush_lag}, then
 *     {@code write_lag} when it is NULL), the largest over the standbys that replay (a WAL archiver such as
 *     pg_receivewal reports no {@code replay_lsn}, and its replay lag only grows). The lag columns are NULL while
 *     a standby is idle and caught up: no lag then.</li>
 *     <li>active sessions: {@code pg_stat_activity} rows of client backends in state {@code active}, this session
 *     and backfill's own (application names {@code backfill-...}) not counted.</li>
 * </ul>
 * Both views show other roles' sessions and lags only to superusers and members of {@code pg_read_all_stats}
 * ({@code pg_monitor}): grant it to the source user, or the guard sees only its own role.
 */
public final class PostgresSourceLoadProbe implements SourceLoadProbe {
    static final String SQL = "SELECT (SELECT max(EXTRACT(EPOCH FROM coalesce(replay_lag, flush_lag, write_lag)))::float8"
            + " FROM pg_catalog.pg_stat_replication WHERE replay_lsn IS NOT NULL) AS lag_seconds,"
            + " (SELECT count(*) FROM pg_catalog.pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend'"
            + " AND pid <> pg_catalog.pg_backend_pid() AND coalesce(application_name, '') NOT LIKE 'backfill-%') AS active";

    private final Connection connection;

    public PostgresSourceLoadProbe(Connection connection) {
        this.connection = connection;
    }

    @Override
    public SourceLoad read() {
        try (PreparedStatement ps = connection.prepareStatement(SQL); ResultSet rs = ps.executeQuery()) {
            rs.next();
            double lag = rs.getDouble("lag_seconds");
            return new SourceLoad(rs.wasNull() ? null : lag, rs.getInt("active"));
        } catch (SQLException e) {
            throw PostgresFailures.of("reading the source's load (pg_stat_replication, pg_stat_activity)", e);
        }
    }
}
