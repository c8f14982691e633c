package io.dpone.backfill.core.ledger;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.plan.CampaignBlueprint;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The ledger port: campaign, chunks and receipts in {@code spec.state.schema} of the target database. Every write
 * that depends on ownership is conditional on owner and epoch; a false return is a lost race, never ignored.
 * Lease expiry always uses the database's clock.
 */
public interface LedgerStore {
    /** Creates the ledger schema and tables if missing; idempotent; checks the schema version. */
    void ensureSchema();

    /**
     * Read-only: the campaign when the ledger schema exists and holds it; empty otherwise. Creates nothing, so a
     * driver can tell a campaign that never started (pre-flight first) from one that did.
     */
    Optional<CampaignRecord> peek(String runKey);

    Optional<CampaignRecord> findByBackfillId(String backfillId);

    Optional<CampaignRecord> findByRunKey(String runKey);

    /**
     * Inserts the campaign and all its chunks (pending) in one transaction, or returns the existing campaign when
     * it has the same run key. Throws {@link LedgerConflictException} when the backfill id exists with other
     * digests.
     */
    CampaignRecord createCampaign(CampaignBlueprint blueprint, String normalisedSpecJson);

    /**
     * Takes the campaign lease if it is free, expired, or already ours (then renews it); epoch + 1 on takeover. By
     * the lease row alone: drivers use {@link #claimCampaign}, which also holds the campaign's driver lock.
     */
    Optional<CampaignLease> acquireLease(String runKey, String owner, Duration ttl);

    /**
     * A driver takes the campaign (ADR 0016). First the campaign's driver lock, a lock owned by this store's database
     * session (PostgreSQL session advisory lock, SQL Server {@code sp_getapplock @LockOwner = 'Session'}), tried
     * without waiting and then held until {@link #releaseLease} or the end of the session. When it is granted, every
     * earlier holder's session is gone, so the lease is taken whatever the lease row says, with epoch + 1 (the same
     * owner too: a new session is a new driver), which fences every write of the earlier holder. When another session
     * holds it, nothing is written and the holder is returned, even if its lease row has expired. When this store
     * already holds the lock, the lease is renewed (or, if the row shows another owner, taken only by
     * {@link #acquireLease}'s rule).
     */
    CampaignClaim claimCampaign(String runKey, String owner, Duration ttl);

    /**
     * Extends a live lease (fenced by owner and epoch). For a lease taken by {@link #claimCampaign}, also only while
     * this session still holds the driver lock; a false return releases what is left of the lock, so the next claim
     * needs a new epoch.
     */
    boolean renewLease(CampaignLease lease, Duration ttl);

    /** Frees the lease (keeping its epoch) and, if this store holds it, the campaign's driver lock. */
    void releaseLease(CampaignLease lease);

    /** Moves the phase from {@code from} to {@code to} with its evidence, fenced by the lease. */
    boolean transition(CampaignLease lease, CampaignPhase from, CampaignPhase to, String detailJson);

    /** Stores the XMin anchor once; a second call with another value is refused (returns false). */
    boolean recordAnchor(CampaignLease lease, String anchorXmin);

    /**
     * Stores what preparation found (fenced): the source and load-table shape digests and the reviewed live
     * target's baseline JSON (shape and content fingerprint); lanes and publication compare against them.
     */
    boolean recordShapes(CampaignLease lease, String sourceShapeDigest, String targetShapeDigest, String liveBaselineJson);

    /**
     * Records how lanes move rows ({@link io.dpone.backfill.core.encoding.RowEncoding#wireName()}), fenced by the lease.
     * Overwrites: preparation records it after the shapes each time it runs, so both always describe the same tables.
     */
    boolean recordRowEncoding(CampaignLease lease, String rowEncoding);

    /**
     * Stores the source's row estimate of every chunk (fenced), {@code rowsPerChunk} in chunk-id order, one per
     * chunk of the plan. Advisory, for the ETA; a replay overwrites with the newer estimate.
     */
    boolean recordChunkEstimates(CampaignLease lease, List<Long> rowsPerChunk);

    /** Asks lanes to stop claiming (suspend, known failure) or lets them claim again. */
    boolean setStopRequested(CampaignLease lease, boolean stop);

    ChunkCounts counts(String runKey, int maxAttempts);

    /**
     * A lane takes its lane lock for {@code owner} (ADR 0021): a lock owned by this store's database session, like
     * the driver lock, tried without waiting and held until the session ends. A chunk claimed from this store while
     * it holds the lock is marked so, and becomes claimable by another lane as soon as no session holds that lock
     * (the lane's process or connection is gone, and its chunk transaction with it), not only when its lease
     * expires. False when another session holds it (a stale session of the same owner): this store's claims then
     * keep lease-only recovery. Taking it again on the holding store returns true and takes nothing more.
     */
    boolean holdLaneLock(String runKey, String owner);

    /**
     * A few chunks a lane may claim: pending, running with an expired lease, running under a claim whose lane lock
     * no session holds any more, or failed with attempts left.
     */
    List<ChunkRecord> claimable(String runKey, int maxAttempts, boolean retryFailed, int limit);

    /**
     * Optimistic claim: epoch + 1 and a fresh lease, only if the chunk still has the epoch and state read and no stop
     * is requested for the campaign.
     */
    Optional<ChunkClaim> claim(String runKey, ChunkRecord seen, String owner, Duration ttl);

    /**
     * Extends a live chunk lease and records how many rows the attempt has copied so far (uncommitted; for the
     * ETA and rate only). A claim resets the count.
     */
    boolean renewChunk(ChunkClaim claim, Duration ttl, long rowsCopied);

    default boolean renewChunk(ChunkClaim claim, Duration ttl) {
        return renewChunk(claim, ttl, 0);
    }

    /** Records a failed attempt (fenced); the chunk is retried later if the policy allows. */
    boolean failChunk(ChunkClaim claim, String error);

    /**
     * Records an attempt the target refused for the rows themselves (fenced): a value it cannot hold, a constraint.
     * Every attempt would read the same rows and fail the same way, so the chunk counts as out of attempts at once
     * and is claimed again only after {@link #requeueFailed} (a person resumes once the cause is fixed).
     */
    boolean refuseChunk(ChunkClaim claim, String error);

    /** The lowest-numbered refused chunk not requeued since, with the error that refused it. */
    Optional<ChunkRecord> firstRefusedChunk(String runKey);

    /**
     * Gives a chunk back after its lane lost a connection (fenced like {@link #failChunk}): pending again, the
     * attempt not counted, {@code reason} kept as its last error. The next claim takes it under a new epoch. A
     * false result means the chunk moved on meanwhile (committed before the connection broke, or claimed by
     * another lane after the lease expired).
     */
    boolean abandonChunk(ChunkClaim claim, String reason);

    /** True when the chunk receipt exists: the chunk's rows are committed whatever the chunk row says. */
    boolean hasChunkReceipt(String runKey, int chunkId);

    /** Marks a chunk committed from its existing receipt (fenced); used when a replay finds the receipt. */
    boolean commitFromReceipt(ChunkClaim claim);

    /** Resets every failed chunk to pending with zero attempts (operator-authorised resume). */
    int requeueFailed(CampaignLease lease);

    List<ChunkRecord> chunks(String runKey, int offset, int limit);

    Optional<PublicationReceipt> publicationReceipt(String runKey);

    Optional<HandoffReceipt> handoffReceipt(String runKey);

    /** Writes the handoff receipt, fenced by the lease; a replay with the same anchor returns true. The engine, not the
     * store, requires the publication receipt first (direct mode has none). */
    boolean recordHandoff(CampaignLease lease, HandoffReceipt receipt);

    Optional<RollbackReceipt> rollbackReceipt(String runKey);

    /**
     * The content digest each chunk receipt recorded (ADR 0018), by chunk id; a receipt written before receipts
     * carried digests maps to null, a chunk without a receipt is absent.
     */
    java.util.Map<Integer, String> chunkDigests(String runKey);

    /** Records the last {@code verify} result (a bounded JSON summary), replacing any earlier one. Unfenced: verify reads only. */
    void recordVerification(String runKey, String summaryJson);

    /** The last {@code verify} result, when one ran. */
    Optional<String> verification(String runKey);

    /**
     * Records that {@code approvedBy} approved the swap of run {@code runKey} (issue 28). The first approval stands; a
     * later one changes nothing. No lease: a person approves, not a driver. Returns the approval in force, empty when
     * the ledger has no such campaign.
     */
    Optional<PublicationApproval> approvePublication(String runKey, String approvedBy);

    /** The approval recorded for run {@code runKey}, if any. */
    Optional<PublicationApproval> publicationApproval(String runKey);

    /**
     * Records that the campaign belongs to publication group {@code group} for live table {@code liveTable}, on the
     * terms {@code termsDigest} (issue 27); a repeat keeps the first record. No lease: these are facts of the
     * immutable spec, recorded when the campaign opens so every member can see which tables have a campaign.
     */
    void joinGroup(String runKey, String group, String termsDigest, String schema, String liveTable);

    /** Fenced by the lease: the validated campaign may swap with its group; a repeat keeps the first readiness. */
    boolean markGroupReady(CampaignLease lease, GroupMember.Readiness readiness);

    /** Every campaign that joined {@code group}, with its current phase; empty when none (or no ledger yet). */
    List<GroupMember> groupMembers(String group);

    /**
     * Records the rate ceiling of run {@code runKey} and how many lanes its driver runs (issue 28). No lease: the
     * driver writes it from the spec, a person through {@code backfill throttle}; the last write stands. Returns
     * false when the run is not in the ledger.
     */
    boolean recordThrottle(String runKey, ThrottleSetting setting);

    /** The ceiling recorded for run {@code runKey}; {@link ThrottleSetting#NONE} when none was (or no such run). */
    ThrottleSetting throttle(String runKey);

    /**
     * Records why the lanes of run {@code runKey} claim nothing for now (issue 28: the source guard, the load
     * windows), or, with null, that they may claim. No lease: the driver writes it; lanes read it before each claim.
     */
    void recordClaimPause(String runKey, ClaimPause pause);

    /** Why the lanes of run {@code runKey} claim nothing for now; empty while they may claim. */
    java.util.Optional<ClaimPause> claimPause(String runKey);
}
