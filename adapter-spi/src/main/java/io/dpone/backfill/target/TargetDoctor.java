package io.dpone.backfill.target;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.doctor.DoctorReport;
import io.dpone.backfill.core.naming.ArtifactNames;

import java.sql.Connection;

/**
 * The read-only pre-flight of a route (the PostgreSQL source's checks plus the target's own), reporting every
 * problem at once; {@code backfill doctor}, {@code run} and the operator run the same one.
 */
public interface TargetDoctor {
    DoctorReport check(BackfillCampaignSpec normalisedSpec, ArtifactNames names, Connection source, Connection target,
                       String runKey);
}
