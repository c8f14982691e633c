package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.LeaseHeartbeat;
import io.dpone.backfill.core.ledger.LedgerStore;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Renews one chunk lease from the lane's state connection while the chunk is copied. The lease counts as lost when
 * a renewal is refused (the epoch moved on) or when no renewal succeeded for most of the TTL, so a lane that cannot
 * reach its state database stops its chunk before another lane may take it over.
 */
final class ChunkLeaseRenewer implements LeaseWatch, AutoCloseable {
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "chunk-lease-renewer");
        t.setDaemon(true);
        return t;
    });

    /** Its own thread: the renewal thread itself may be the one blocked on a dead connection. */
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "chunk-deadline");
        t.setDaemon(true);
        return t;
    });

    private final LedgerStore ledger;
    private final ChunkClaim claim;
    private final EngineTimings timings;
    private final LeaseHeartbeat heartbeat;
    private volatile boolean refused;
    private volatile boolean finished;
    private volatile long rowsCopied;
    private final ScheduledFuture<?> task;
    private final ScheduledFuture<?> deadline;
    private final long stallNanos;
    private final java.util.function.Consumer<String> onDeadline;
    private volatile long lastProgressNanos = System.nanoTime();
    private volatile boolean deadlineFired;

    ChunkLeaseRenewer(LedgerStore ledger, ChunkClaim claim, EngineTimings timings) {
        this(ledger, claim, timings, Duration.ofDays(1), reason -> { });
    }

    /**
     * {@code onDeadline} is called once, from the deadline thread, when the chunk made no progress (rows, the end of
     * the copy) for {@code stall} or the lease renewal went silent for most of the TTL: a call blocked on a
     * half-open connection never returns by itself, and no check between rows runs while it is blocked.
     */
    ChunkLeaseRenewer(LedgerStore ledger, ChunkClaim claim, EngineTimings timings, Duration stall,
                      java.util.function.Consumer<String> onDeadline) {
        this.ledger = ledger;
        this.stallNanos = stall.toNanos();
        this.onDeadline = onDeadline;
        this.claim = claim;
        this.timings = timings;
        // Give up at 80% of the TTL: leaves margin for clock drift between this process and the database.
        this.heartbeat = new LeaseHeartbeat(timings.leaseTtl());
        long every = timings.renewEvery().toMillis();
        this.task = TIMER.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
        long check = Math.max(100, Math.min(1000, every));
        this.deadline = DEADLINES.scheduleWithFixedDelay(this::checkDeadline, check, check, TimeUnit.MILLISECONDS);
    }

    private void checkDeadline() {
        if (deadlineFired) {
            return;
        }
        long now = System.nanoTime();
        String reason = null;
        if (!finished && !refused && heartbeat.silent()) {
            reason = "no lease renewal succeeded for " + heartbeat.silentSeconds() + " s";
        } else if (now - lastProgressNanos > stallNanos) {
            reason = "no progress for " + (now - lastProgressNanos) / 1_000_000_000 + " s (stall deadline)";
        }
        if (reason != null) {
            deadlineFired = true;
            onDeadline.accept(reason);
        }
    }

    private void renew() {
        if (finished || refused) {
            return;
        }
        try {
            if (ledger.renewChunk(claim, timings.leaseTtl(), rowsCopied)) {
                heartbeat.beat();
            } else {
                refused = true;
            }
        } catch (RuntimeException e) {
            // Transient: the deadline below decides when silence means the lease is gone.
        }
    }

    @Override
    public boolean lost() {
        return refused || (!finished && heartbeat.silent());
    }

    @Override
    public void copied(long rows) {
        if (rows != rowsCopied) {
            lastProgressNanos = System.nanoTime();
        }
        rowsCopied = rows;
    }

    @Override
    public void copyFinished() {
        lastProgressNanos = System.nanoTime();
        finished = true;
    }

    @Override
    public void close() {
        finished = true;
        deadlineFired = true;
        task.cancel(false);
        deadline.cancel(false);
    }
}
