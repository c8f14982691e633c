package io.dpone.backfill.targets;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.doctor.DoctorReport;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.source.SourceTable;

import java.sql.Connection;

/**
 * The read-only pre-flight of a route (the source's own checks, {@link io.dpone.backfill.source.SourceDoctor}, plus
 * the target's), reporting every problem at once; {@code backfill doctor}, {@code run} and the operator run the same
 * one. The source table is the spec's, over a connection that may be null (reported as a finding).
 */
public interface TargetDoctor {
    DoctorReport check(BackfillCampaignSpec normalisedSpec, ArtifactNames names, SourceTable source, Connection target,
                       String runKey);
}
