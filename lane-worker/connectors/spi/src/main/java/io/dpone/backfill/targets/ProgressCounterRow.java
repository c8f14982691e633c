package io.dpone.backfill.targets;

import io.dpone.backfill.core.ledger.ProgressCounters;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The progress counters (ADR 0027) from the current row of either ledger's progress statement: both name their
 * columns alike, so one reader serves both.
 */
public final class ProgressCounterRow {
    private ProgressCounterRow() {
    }

    public static ProgressCounters read(ResultSet rs) throws SQLException {
        return new ProgressCounters(rs.getInt("total"), rs.getInt("committed"), rs.getLong("rows_extracted"),
                rs.getLong("rows_loaded"), rs.getLong("planned_estimated"), rs.getLong("planned_estimated_rows"),
                rs.getLong("committed_estimated"), rs.getLong("committed_estimated_rows"), rs.getInt("running"),
                rs.getInt("failed"), rs.getInt("failed_exhausted"), rs.getLong("live_estimated_rows"),
                rs.getLong("recent_rows"), rs.getDouble("seconds"));
    }
}
