package io.dpone.backfill.targets.ledger;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.targets.DriverLockedLease;

import java.sql.SQLException;
import java.util.Optional;

/**
 * The campaign row's statements, each executed on the state connection: the row itself, its lease (with the
 * driver lock, {@link DriverLockedLease.Statements}) and the fenced writes of its holder. A fenced write is one
 * conditional statement on owner, epoch and a live lease by the database clock; false means the lease was lost.
 */
public interface CampaignStatements extends DriverLockedLease.Statements {

    /** True when the ledger's campaign table exists; asking creates nothing. */
    boolean ledgerPresent() throws SQLException;

    Optional<CampaignRecord> byRunKey(String runKey) throws SQLException;

    Optional<CampaignRecord> byBackfillId(String backfillId) throws SQLException;

    /** The campaign row, in phase {@link CampaignPhase#Planned}; its chunks are {@link ChunkStatements#insertPlan}'s. */
    void insert(CampaignBlueprint blueprint, String specJson) throws SQLException;

    /** Phase {@code from} to {@code to}; a null {@code detailJson} keeps the current detail. */
    boolean transition(CampaignLease lease, CampaignPhase from, CampaignPhase to, String detailJson) throws SQLException;

    /** True when the anchor is now (or already was) this value; false for another stored value or a lost lease. */
    boolean recordAnchor(CampaignLease lease, String anchorXmin) throws SQLException;

    boolean recordShapes(CampaignLease lease, String sourceShapeDigest, String targetShapeDigest, String liveBaselineJson)
            throws SQLException;

    boolean recordRowEncoding(CampaignLease lease, String rowEncoding) throws SQLException;

    boolean setStopRequested(CampaignLease lease, boolean stop) throws SQLException;

    /**
     * A fenced no-op update: proves the lease and, by its row lock, holds it until the transaction ends, so writes
     * to other tables in the same transaction commit only under it.
     */
    boolean proveLease(CampaignLease lease) throws SQLException;

    /** Like {@link #proveLease}, and marks the campaign row updated now. */
    boolean touch(CampaignLease lease) throws SQLException;

    /** Sets the approval on the campaign row unless it has one; no lease. */
    void approve(String runKey, String approvedBy) throws SQLException;

    Optional<io.dpone.backfill.core.ledger.PublicationApproval> approval(String runKey) throws SQLException;

    /** Sets the run's rate ceiling and lane count (issue 28); no lease, the last write stands. False: no such run. */
    boolean recordThrottle(String runKey, io.dpone.backfill.core.ledger.ThrottleSetting setting) throws SQLException;

    /** The run's rate ceiling; {@code ThrottleSetting.NONE} when none was recorded or there is no such run. */
    io.dpone.backfill.core.ledger.ThrottleSetting throttle(String runKey) throws SQLException;

    /** Sets (or, with null, clears) why the run's lanes claim nothing for now ({@code ClaimPause} text); no lease. */
    void recordClaimPause(String runKey, String pause) throws SQLException;

    Optional<String> claimPause(String runKey) throws SQLException;
}
