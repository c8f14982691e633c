package io.dpone.backfill.core.ledger;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.CampaignIdentity;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A ledger held in memory: the "database" that several {@link Store}s (a driver's, each lane's) share, with the
 * same rules as the PostgreSQL ledger, statement by statement. Every method runs under one monitor, as the
 * database's row locks and single statements would make it atomic. The clock is the JVM's here (the "database
 * clock" of this engine). Built for unit tests of the engine and lanes; it passes {@link LedgerStoreContract}.
 */
public final class InMemoryLedger {

    /** Leases expire on this clock, as they do on the database's clock in a real ledger. */
    private final Clock clock;

    /** A ledger whose leases run on the system clock, for tests of the engine and lanes in real time. */
    public InMemoryLedger() {
        this(Clock.systemUTC());
    }

    /** A ledger whose leases run on {@code clock}: tests move it instead of sleeping through lease expiries. */
    public InMemoryLedger(Clock clock) {
        this.clock = clock;
    }

    private boolean schema;
    private final Map<String, Campaign> campaigns = new LinkedHashMap<>();
    private final Map<String, TreeMap<Integer, Chunk>> chunks = new HashMap<>();
    private final Map<String, Map<Integer, Long>> chunkReceipts = new HashMap<>();
    private final Map<String, Map<Integer, String>> receiptDigests = new HashMap<>();
    private final Map<String, String> verifications = new HashMap<>();
    private final Map<String, PublicationReceipt> publications = new HashMap<>();
    private final Map<String, HandoffReceipt> handoffs = new HashMap<>();
    private final Map<String, RollbackReceipt> rollbacks = new HashMap<>();
    /** Publication group entries by run key (issue 27). */
    private final Map<String, GroupMember> groupMembers = new LinkedHashMap<>();
    /** The campaigns' driver locks (ADR 0016) and the session (store) holding each. */
    private final Map<String, Store> driverLocks = new HashMap<>();
    /** The lanes' locks (ADR 0021), keyed by run key and owner, and the session (store) holding each. */
    private final Map<String, Store> laneLocks = new HashMap<>();

    private static final class Campaign {
        String runKey;
        String backfillId;
        String planDigest;
        String configDigest;
        String specJson;
        CampaignPhase phase = CampaignPhase.Planned;
        String detail = "{}";
        String anchor;
        String sourceShape;
        String targetShape;
        String liveBaseline;
        String rowEncoding;
        boolean stop;
        String leaseOwner;
        long leaseEpoch;
        Instant leaseExpires;
        Instant leaseSince;
        Instant createdAt;
        Instant updatedAt;
        PublicationApproval approval;
        ThrottleSetting throttle = ThrottleSetting.NONE;
        ClaimPause claimPause;

        CampaignRecord record() {
            return new CampaignRecord(runKey, backfillId, planDigest, configDigest, specJson, phase, detail, anchor,
                    sourceShape, targetShape, liveBaseline, rowEncoding, leaseOwner, leaseEpoch, leaseExpires, stop, createdAt, updatedAt);
        }
    }

    private static final class Chunk {
        int id;
        String lower;
        String upper;
        ChunkState state = ChunkState.PENDING;
        int attempts;
        String owner;
        long epoch;
        Instant leaseExpires;
        long rowsExtracted;
        long rowsLoaded;
        Instant startedAt;
        Instant finishedAt;
        String lastError;
        Long rowsEstimated;
        long rowsCopied;
        boolean ownerLocked;
        boolean refused;
    }

    /** A new connection to this ledger. */
    public Store connect() {
        return new Store();
    }

    /** The store's session ends (its connection closed or the server ended it): its driver locks are free. */
    public synchronized void endSession(Store store) {
        store.ended = true;
        driverLocks.values().removeIf(holder -> holder == store);
        laneLocks.values().removeIf(holder -> holder == store);
    }

    /** Writes a chunk receipt as a lane's sink transaction does (receipts do not go through the store). */
    public synchronized void writeChunkReceipt(String runKey, int chunkId, long rows) {
        chunkReceipts.computeIfAbsent(runKey, k -> new HashMap<>()).put(chunkId, rows);
    }

    /** The publication receipt a publisher writes inside its swap. */
    public synchronized void writePublication(PublicationReceipt receipt) {
        publications.putIfAbsent(receipt.runKey(), receipt);
    }

    /** The rollback receipt a publisher writes inside its swap back. */
    public synchronized void writeRollback(RollbackReceipt receipt) {
        rollbacks.putIfAbsent(receipt.runKey(), receipt);
    }

    /** True when the lease is held by exactly this owner and epoch and has not expired. */
    public synchronized boolean holds(CampaignLease lease) {
        return fenced(lease) != null;
    }

    private Instant now() {
        return clock.instant();
    }

    private Campaign fenced(CampaignLease lease) {
        Campaign c = campaigns.get(lease.runKey());
        if (c == null || !Objects.equals(c.leaseOwner, lease.owner()) || c.leaseEpoch != lease.epoch()
                || c.leaseExpires == null || c.leaseExpires.isBefore(now())) {
            return null;
        }
        return c;
    }

    /** As the SQL ledgers: a running chunk is claimable once its lease expired, or its lane's lock is free of other sessions. */
    private boolean isClaimable(String runKey, Chunk c, boolean retryFailed, int maxAttempts, Store caller) {
        return c.state == ChunkState.PENDING
                || c.state == ChunkState.RUNNING && (c.leaseExpires != null && c.leaseExpires.isBefore(now())
                        || c.ownerLocked && !isHeldByAnother(laneLockKey(runKey, c.owner), caller))
                || retryFailed && c.state == ChunkState.FAILED && !c.refused && c.attempts < maxAttempts;
    }

    private boolean isHeldByAnother(String laneLock, Store caller) {
        Store holder = laneLocks.get(laneLock);
        return holder != null && holder != caller;
    }

    private static String laneLockKey(String runKey, String owner) {
        return runKey + "\n" + owner;
    }

    private ChunkRecord record(Chunk c) {
        boolean expired = c.leaseExpires != null && c.leaseExpires.isBefore(now());
        return new ChunkRecord(c.id, c.lower, c.upper, c.state, c.attempts, c.owner, c.epoch, c.leaseExpires, expired,
                c.rowsExtracted, c.rowsLoaded, c.lastError, c.rowsEstimated);
    }

    private static long ttlMillis(Duration ttl) {
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("lease ttl must be positive: " + ttl);
        }
        return ttl.toMillis();
    }

    private void requireSchema() {
        if (!schema) {
            throw new IllegalStateException("the ledger schema does not exist");
        }
    }

    private TreeMap<Integer, Chunk> chunksOf(String runKey) {
        return chunks.getOrDefault(runKey, new TreeMap<>());
    }

    /** One connection's view of the ledger: every call is one atomic statement or transaction on it. */
    public final class Store implements LedgerStore {
        private boolean ended;

        private Store() {
        }

        private void requireSession() {
            if (ended) {
                throw new IllegalStateException("this store's session has ended");
            }
        }

        private boolean holdsDriverLock(String runKey) {
            return driverLocks.get(runKey) == this;
        }

        private CampaignClaim holder(Campaign c) {
            return c == null ? CampaignClaim.heldBy(null, null, null) : CampaignClaim.heldBy(c.leaseOwner, c.leaseSince, c.leaseExpires);
        }

        @Override
        public CampaignClaim claimCampaign(String runKey, String owner, Duration ttl) {
            long millis = ttlMillis(ttl);
            synchronized (InMemoryLedger.this) {
                requireSession();
                Campaign c = campaigns.get(runKey);
                if (holdsDriverLock(runKey)) {
                    return acquireLease(runKey, owner, ttl).<CampaignClaim>map(CampaignClaim::taken).orElseGet(() -> holder(c));
                }
                if (driverLocks.containsKey(runKey)) {
                    return holder(c);
                }
                if (c == null) {
                    throw new IllegalStateException("campaign " + runKey + " is not in the ledger");
                }
                driverLocks.put(runKey, this);
                String liveOwner = c.leaseOwner != null && c.leaseExpires != null && !c.leaseExpires.isBefore(now())
                        ? c.leaseOwner : null;
                c.leaseEpoch++;
                c.leaseOwner = owner;
                c.leaseExpires = now().plusMillis(millis);
                c.leaseSince = now();
                return CampaignClaim.tookOver(new CampaignLease(runKey, owner, c.leaseEpoch), liveOwner);
            }
        }

        @Override
        public void ensureSchema() {
            synchronized (InMemoryLedger.this) {
                schema = true;
            }
        }

        @Override
        public Optional<PublicationApproval> approvePublication(String runKey, String approvedBy) {
            synchronized (InMemoryLedger.this) {
                Campaign c = schema ? campaigns.get(runKey) : null;
                if (c == null) {
                    return Optional.empty();
                }
                if (c.approval == null) {
                    c.approval = new PublicationApproval(approvedBy, Instant.now());
                }
                return Optional.of(c.approval);
            }
        }

        @Override
        public Optional<PublicationApproval> publicationApproval(String runKey) {
            synchronized (InMemoryLedger.this) {
                Campaign c = schema ? campaigns.get(runKey) : null;
                return c == null ? Optional.empty() : Optional.ofNullable(c.approval);
            }
        }

        @Override
        public boolean recordThrottle(String runKey, ThrottleSetting setting) {
            synchronized (InMemoryLedger.this) {
                Campaign c = schema ? campaigns.get(runKey) : null;
                if (c == null) {
                    return false;
                }
                c.throttle = setting;
                return true;
            }
        }

        @Override
        public void recordClaimPause(String runKey, ClaimPause pause) {
            synchronized (InMemoryLedger.this) {
                Campaign c = schema ? campaigns.get(runKey) : null;
                if (c != null) {
                    c.claimPause = pause;
                }
            }
        }

        @Override
        public Optional<ClaimPause> claimPause(String runKey) {
            synchronized (InMemoryLedger.this) {
                Campaign c = schema ? campaigns.get(runKey) : null;
                return c == null ? Optional.empty() : Optional.ofNullable(c.claimPause);
            }
        }

        @Override
        public ThrottleSetting throttle(String runKey) {
            synchronized (InMemoryLedger.this) {
                Campaign c = schema ? campaigns.get(runKey) : null;
                return c == null ? ThrottleSetting.NONE : c.throttle;
            }
        }

        @Override
        public Optional<CampaignRecord> peek(String runKey) {
            synchronized (InMemoryLedger.this) {
                return schema ? Optional.ofNullable(campaigns.get(runKey)).map(Campaign::record) : Optional.empty();
            }
        }

        @Override
        public Optional<CampaignRecord> findByBackfillId(String backfillId) {
            synchronized (InMemoryLedger.this) {
                requireSchema();
                return campaigns.values().stream().filter(c -> c.backfillId.equals(backfillId)).findFirst().map(Campaign::record);
            }
        }

        @Override
        public Optional<CampaignRecord> findByRunKey(String runKey) {
            synchronized (InMemoryLedger.this) {
                requireSchema();
                return Optional.ofNullable(campaigns.get(runKey)).map(Campaign::record);
            }
        }

        @Override
        public CampaignRecord createCampaign(CampaignBlueprint blueprint, String normalisedSpecJson) {
            synchronized (InMemoryLedger.this) {
                requireSchema();
                String backfillId = blueprint.definition().spec().getBackfillId();
                CampaignIdentity identity = blueprint.identity();
                Optional<Campaign> existing = campaigns.values().stream().filter(c -> c.backfillId.equals(backfillId)).findFirst();
                if (existing.isPresent()) {
                    Campaign stored = existing.get();
                    if (stored.runKey.equals(identity.runKey()) && stored.planDigest.equals(identity.planDigest())
                            && stored.configDigest.equals(identity.configDigest())) {
                        return stored.record();
                    }
                    throw new LedgerConflictException("backfillId " + backfillId + " is already in the ledger with run key "
                            + stored.runKey + ", but this spec has run key " + identity.runKey()
                            + " (plan or config digest differs); a changed plan or config needs a new backfillId");
                }
                Campaign c = new Campaign();
                c.runKey = identity.runKey();
                c.backfillId = backfillId;
                c.planDigest = identity.planDigest();
                c.configDigest = identity.configDigest();
                c.specJson = normalisedSpecJson;
                c.createdAt = now();
                c.updatedAt = c.createdAt;
                campaigns.put(c.runKey, c);
                TreeMap<Integer, Chunk> rows = new TreeMap<>();
                ChunkPlan plan = blueprint.plan();
                for (int i = 0; i < plan.size(); i++) {
                    ChunkRange range = plan.chunk(i);
                    Chunk chunk = new Chunk();
                    chunk.id = range.id();
                    chunk.lower = plan.boundText(range.lowerInclusive());
                    chunk.upper = plan.boundText(range.upperExclusive());
                    rows.put(chunk.id, chunk);
                }
                chunks.put(c.runKey, rows);
                return c.record();
            }
        }

        @Override
        public Optional<CampaignLease> acquireLease(String runKey, String owner, Duration ttl) {
            long millis = ttlMillis(ttl);
            synchronized (InMemoryLedger.this) {
                Campaign c = campaigns.get(runKey);
                if (c == null || !(c.leaseOwner == null || c.leaseExpires == null || c.leaseExpires.isBefore(now())
                        || c.leaseOwner.equals(owner))) {
                    return Optional.empty();
                }
                if (!owner.equals(c.leaseOwner)) {
                    c.leaseEpoch++;
                    c.leaseSince = now();
                }
                c.leaseOwner = owner;
                c.leaseExpires = now().plusMillis(millis);
                return Optional.of(new CampaignLease(runKey, owner, c.leaseEpoch));
            }
        }

        @Override
        public boolean renewLease(CampaignLease lease, Duration ttl) {
            long millis = ttlMillis(ttl);
            synchronized (InMemoryLedger.this) {
                requireSession();
                Campaign c = fenced(lease);
                if (c == null) {
                    driverLocks.remove(lease.runKey(), this);
                    return false;
                }
                c.leaseExpires = now().plusMillis(millis);
                return true;
            }
        }

        @Override
        public void releaseLease(CampaignLease lease) {
            synchronized (InMemoryLedger.this) {
                Campaign c = campaigns.get(lease.runKey());
                if (c != null && lease.owner().equals(c.leaseOwner) && c.leaseEpoch == lease.epoch()) {
                    c.leaseOwner = null;
                    c.leaseExpires = null;
                    c.leaseSince = null;
                }
                driverLocks.remove(lease.runKey(), this);
            }
        }

        @Override
        public boolean transition(CampaignLease lease, CampaignPhase from, CampaignPhase to, String detailJson) {
            synchronized (InMemoryLedger.this) {
                Campaign c = fenced(lease);
                if (c == null || c.phase != from) {
                    return false;
                }
                c.phase = to;
                if (detailJson != null) {
                    c.detail = detailJson;
                }
                c.updatedAt = now();
                return true;
            }
        }

        @Override
        public boolean recordAnchor(CampaignLease lease, String anchorXmin) {
            Objects.requireNonNull(anchorXmin, "anchorXmin");
            synchronized (InMemoryLedger.this) {
                Campaign c = fenced(lease);
                if (c == null || c.anchor != null && !c.anchor.equals(anchorXmin)) {
                    return false;
                }
                c.anchor = anchorXmin;
                return true;
            }
        }

        @Override
        public boolean recordShapes(CampaignLease lease, String sourceShapeDigest, String targetShapeDigest, String liveBaselineJson) {
            synchronized (InMemoryLedger.this) {
                Campaign c = fenced(lease);
                if (c == null) {
                    return false;
                }
                c.sourceShape = sourceShapeDigest;
                c.targetShape = targetShapeDigest;
                c.liveBaseline = liveBaselineJson;
                return true;
            }
        }

        @Override
        public void joinGroup(String runKey, String group, String termsDigest, String schemaName, String liveTable) {
            synchronized (InMemoryLedger.this) {
                groupMembers.putIfAbsent(runKey, new GroupMember(group, runKey, termsDigest, schemaName, liveTable, null, null));
            }
        }

        @Override
        public boolean markGroupReady(CampaignLease lease, GroupMember.Readiness readiness) {
            synchronized (InMemoryLedger.this) {
                if (fenced(lease) == null) {
                    return false;
                }
                GroupMember m = groupMembers.get(lease.runKey());
                if (m == null) {
                    throw new IllegalStateException(lease.runKey() + " joined no group");
                }
                if (m.readiness() == null) {
                    groupMembers.put(lease.runKey(), new GroupMember(m.group(), m.runKey(), m.termsDigest(), m.schema(),
                            m.liveTable(), null, readiness));
                }
                return true;
            }
        }

        @Override
        public java.util.List<GroupMember> groupMembers(String group) {
            synchronized (InMemoryLedger.this) {
                return groupMembers.values().stream().filter(m -> m.group().equals(group))
                        .map(m -> new GroupMember(m.group(), m.runKey(), m.termsDigest(), m.schema(), m.liveTable(),
                                campaigns.get(m.runKey()).phase, m.readiness()))
                        .toList();
            }
        }

        @Override
        public boolean recordRowEncoding(CampaignLease lease, String rowEncoding) {
            synchronized (InMemoryLedger.this) {
                Campaign c = fenced(lease);
                if (c == null) {
                    return false;
                }
                c.rowEncoding = rowEncoding;
                return true;
            }
        }

        @Override
        public boolean setStopRequested(CampaignLease lease, boolean stop) {
            synchronized (InMemoryLedger.this) {
                Campaign c = fenced(lease);
                if (c == null) {
                    return false;
                }
                c.stop = stop;
                return true;
            }
        }

        @Override
        public ChunkCounts counts(String runKey, int maxAttempts) {
            synchronized (InMemoryLedger.this) {
                int total = 0, pending = 0, running = 0, committed = 0, failed = 0, exhausted = 0;
                long extracted = 0, loaded = 0, recent = 0;
                Instant firstStart = null;
                Instant minuteAgo = now().minusSeconds(60);
                for (Chunk c : chunksOf(runKey).values()) {
                    total++;
                    switch (c.state) {
                        case PENDING -> pending++;
                        case RUNNING -> running++;
                        case COMMITTED -> {
                            committed++;
                            extracted += c.rowsExtracted;
                            loaded += c.rowsLoaded;
                            if (c.finishedAt != null && !c.finishedAt.isBefore(minuteAgo)) {
                                recent += c.rowsLoaded;
                            }
                        }
                        case FAILED -> {
                            failed++;
                            if (c.attempts >= maxAttempts || c.refused) {
                                exhausted++;
                            }
                        }
                    }
                    if (c.startedAt != null && (firstStart == null || c.startedAt.isBefore(firstStart))) {
                        firstStart = c.startedAt;
                    }
                }
                double seconds = firstStart == null ? 0 : Math.max(0, Duration.between(firstStart, now()).toNanos() / 1e9);
                return new ChunkCounts(total, pending, running, committed, failed, exhausted, extracted, loaded, recent, seconds,
                        estimates(runKey));
            }
        }

        /** As the PostgreSQL query: waiting chunks (pending, failed, running with an expired lease) and live running ones. */
        private ChunkEstimates estimates(String runKey) {
            int estimated = 0;
            int unestimated = 0;
            long waiting = 0;
            List<RunningChunk> running = new ArrayList<>();
            for (Chunk c : chunksOf(runKey).values()) {
                if (c.rowsEstimated != null) {
                    estimated++;
                } else if (c.state != ChunkState.COMMITTED) {
                    unestimated++;
                }
                boolean live = c.state == ChunkState.RUNNING && c.leaseExpires != null && !c.leaseExpires.isBefore(now());
                if (c.state == ChunkState.PENDING || c.state == ChunkState.FAILED || c.state == ChunkState.RUNNING && !live) {
                    waiting += c.rowsEstimated == null ? 0 : c.rowsEstimated;
                } else if (live) {
                    double secs = c.startedAt == null ? 0 : Math.max(0, Duration.between(c.startedAt, now()).toNanos() / 1e9);
                    running.add(new RunningChunk(c.rowsEstimated, secs, c.rowsCopied));
                }
            }
            return new ChunkEstimates(estimated > 0 && unestimated == 0, waiting, running);
        }

        @Override
        public boolean recordChunkEstimates(CampaignLease lease, List<Long> rowsPerChunk) {
            synchronized (InMemoryLedger.this) {
                if (fenced(lease) == null) {
                    return false;
                }
                TreeMap<Integer, Chunk> rows = chunksOf(lease.runKey());
                for (int i = 0; i < rowsPerChunk.size(); i++) {
                    Chunk c = rows.get(i);
                    if (c != null) {
                        c.rowsEstimated = rowsPerChunk.get(i);
                    }
                }
                return true;
            }
        }

        @Override
        public boolean holdLaneLock(String runKey, String owner) {
            synchronized (InMemoryLedger.this) {
                requireSession();
                Store holder = laneLocks.putIfAbsent(laneLockKey(runKey, owner), this);
                return holder == null || holder == this;
            }
        }

        @Override
        public List<ChunkRecord> claimable(String runKey, int maxAttempts, boolean retryFailed, int limit) {
            synchronized (InMemoryLedger.this) {
                return chunksOf(runKey).values().stream().filter(c -> isClaimable(runKey, c, retryFailed, maxAttempts, this)).limit(limit)
                        .map(InMemoryLedger.this::record).toList();
            }
        }

        @Override
        public Optional<ChunkClaim> claim(String runKey, ChunkRecord seen, String owner, Duration ttl) {
            long millis = ttlMillis(ttl);
            synchronized (InMemoryLedger.this) {
                Chunk c = chunksOf(runKey).get(seen.chunkId());
                Campaign campaign = campaigns.get(runKey);
                // The retry policy was applied to the read; here any matching claimable row qualifies.
                if (c == null || c.epoch != seen.epoch() || c.state != seen.state() || c.attempts != seen.attempts()
                        || !isClaimable(runKey, c, true, Integer.MAX_VALUE, this) || campaign != null && campaign.stop) {
                    return Optional.empty();
                }
                c.state = ChunkState.RUNNING;
                c.owner = owner;
                c.epoch++;
                c.attempts++;
                c.leaseExpires = now().plusMillis(millis);
                c.ownerLocked = laneLocks.get(laneLockKey(runKey, owner)) == this;
                if (c.startedAt == null) {
                    c.startedAt = now();
                }
                c.finishedAt = null;
                c.lastError = null;
                c.rowsCopied = 0;
                return Optional.of(new ChunkClaim(runKey, c.id, owner, c.epoch, c.attempts));
            }
        }

        @Override
        public boolean renewChunk(ChunkClaim claim, Duration ttl, long rowsCopied) {
            long millis = ttlMillis(ttl);
            synchronized (InMemoryLedger.this) {
                Chunk c = owned(claim);
                if (c == null || c.state != ChunkState.RUNNING || c.leaseExpires == null || c.leaseExpires.isBefore(now())) {
                    return false;
                }
                c.leaseExpires = now().plusMillis(millis);
                c.rowsCopied = rowsCopied;
                return true;
            }
        }

        @Override
        public boolean abandonChunk(ChunkClaim claim, String reason) {
            synchronized (InMemoryLedger.this) {
                Chunk c = owned(claim);
                if (c == null || c.state != ChunkState.RUNNING) {
                    return false;
                }
                c.state = ChunkState.PENDING;
                c.owner = null;
                c.leaseExpires = null;
                c.attempts = Math.max(0, c.attempts - 1);
                c.rowsCopied = 0;
                c.lastError = ChunkErrorText.bounded(reason);
                return true;
            }
        }

        @Override
        public boolean failChunk(ChunkClaim claim, String error) {
            return fail(claim, error, false);
        }

        @Override
        public boolean refuseChunk(ChunkClaim claim, String error) {
            return fail(claim, error, true);
        }

        @Override
        public Optional<ChunkRecord> firstRefusedChunk(String runKey) {
            synchronized (InMemoryLedger.this) {
                return chunksOf(runKey).values().stream().filter(c -> c.state == ChunkState.FAILED && c.refused)
                        .findFirst().map(InMemoryLedger.this::record);
            }
        }

        private boolean fail(ChunkClaim claim, String error, boolean refused) {
            synchronized (InMemoryLedger.this) {
                Chunk c = owned(claim);
                if (c == null || c.state != ChunkState.RUNNING) {
                    return false;
                }
                c.state = ChunkState.FAILED;
                c.refused = refused;
                c.owner = null;
                c.leaseExpires = null;
                c.lastError = ChunkErrorText.bounded(error);
                c.finishedAt = now();
                return true;
            }
        }

        @Override
        public Map<Integer, String> chunkDigests(String runKey) {
            synchronized (InMemoryLedger.this) {
                Map<Integer, String> digests = new HashMap<>();
                chunkReceipts.getOrDefault(runKey, Map.of()).keySet()
                        .forEach(id -> digests.put(id, receiptDigests.getOrDefault(runKey, Map.of()).get(id)));
                return digests;
            }
        }

        @Override
        public void recordVerification(String runKey, String summaryJson) {
            synchronized (InMemoryLedger.this) {
                verifications.put(runKey, summaryJson);
            }
        }

        @Override
        public java.util.Optional<String> verification(String runKey) {
            synchronized (InMemoryLedger.this) {
                return java.util.Optional.ofNullable(verifications.get(runKey));
            }
        }

        @Override
        public boolean hasChunkReceipt(String runKey, int chunkId) {
            synchronized (InMemoryLedger.this) {
                return chunkReceipts.getOrDefault(runKey, Map.of()).containsKey(chunkId);
            }
        }

        @Override
        public boolean commitFromReceipt(ChunkClaim claim) {
            synchronized (InMemoryLedger.this) {
                Chunk c = owned(claim);
                Long rows = chunkReceipts.getOrDefault(claim.runKey(), Map.of()).get(claim.chunkId());
                // Running only, as in the SQL ledgers: a chunk moves to committed once.
                if (c == null || rows == null || c.state != ChunkState.RUNNING) {
                    return false;
                }
                c.state = ChunkState.COMMITTED;
                c.rowsLoaded = rows;
                c.rowsExtracted = rows;
                c.finishedAt = now();
                c.leaseExpires = null;
                return true;
            }
        }

        @Override
        public int requeueFailed(CampaignLease lease) {
            synchronized (InMemoryLedger.this) {
                if (fenced(lease) == null) {
                    return 0;
                }
                int n = 0;
                for (Chunk c : chunksOf(lease.runKey()).values()) {
                    if (c.state == ChunkState.FAILED) {
                        c.state = ChunkState.PENDING;
                        c.attempts = 0;
                        c.owner = null;
                        c.leaseExpires = null;
                        c.refused = false;
                        n++;
                    }
                }
                return n;
            }
        }

        @Override
        public List<ChunkRecord> chunks(String runKey, int offset, int limit) {
            synchronized (InMemoryLedger.this) {
                return chunksOf(runKey).values().stream().skip(offset).limit(limit).map(InMemoryLedger.this::record).toList();
            }
        }

        @Override
        public Optional<PublicationReceipt> publicationReceipt(String runKey) {
            synchronized (InMemoryLedger.this) {
                return Optional.ofNullable(publications.get(runKey));
            }
        }

        @Override
        public Optional<HandoffReceipt> handoffReceipt(String runKey) {
            synchronized (InMemoryLedger.this) {
                return Optional.ofNullable(handoffs.get(runKey));
            }
        }

        @Override
        public boolean recordHandoff(CampaignLease lease, HandoffReceipt receipt) {
            if (!lease.runKey().equals(receipt.runKey())) {
                throw new IllegalArgumentException("handoff receipt for run key " + receipt.runKey()
                        + " offered under the lease of run key " + lease.runKey());
            }
            synchronized (InMemoryLedger.this) {
                Campaign c = fenced(lease);
                if (c == null) {
                    return false;
                }
                c.updatedAt = now();
                handoffs.putIfAbsent(receipt.runKey(), new HandoffReceipt(receipt.runKey(), receipt.receiptId(),
                        receipt.anchorXmin(), receipt.committedAt() == null ? now() : receipt.committedAt()));
                return handoffs.get(receipt.runKey()).anchorXmin().equals(receipt.anchorXmin());
            }
        }

        @Override
        public Optional<RollbackReceipt> rollbackReceipt(String runKey) {
            synchronized (InMemoryLedger.this) {
                return Optional.ofNullable(rollbacks.get(runKey));
            }
        }

        private Chunk owned(ChunkClaim claim) {
            Chunk c = chunksOf(claim.runKey()).get(claim.chunkId());
            return c != null && Objects.equals(c.owner, claim.owner()) && c.epoch == claim.epoch() ? c : null;
        }
    }

    /** All campaigns' run keys, in creation order (for assertions). */
    public synchronized List<String> runKeys() {
        return new ArrayList<>(campaigns.keySet());
    }
}
