package io.dpone.backfill.source;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.doctor.Finding;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The source's half of a route's pre-flight, which every target's doctor runs before its own checks; its findings
 * are coded {@code source.*}.
 */
public interface SourceDoctor {
    /** Adds {@code source.connection.ok} or {@code source.connection.failed}; returns whether the source is usable. */
    boolean connected(Connection source, List<Finding> findings);

    /**
     * The table exists and can be read, its chunk column and unique key fit the campaign; returns whether the table
     * exists (a target's column and foreign-key checks need it).
     */
    boolean checkTable(Connection source, BackfillCampaignSpec spec, List<Finding> findings) throws SQLException;

    /** What a finding names when a query of the source's catalog failed, e.g. {@code pg_catalog}. */
    String catalogName();
}
