package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.LedgerStore;

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

    private final LedgerStore ledger;
    private final ChunkClaim claim;
    private final EngineTimings timings;
    private final long deadlineSlackNanos;
    private volatile long lastRenewedNanos = System.nanoTime();
    private volatile boolean refused;
    private volatile boolean finished;
    private volatile long rowsCopied;
    private final ScheduledFuture<?> task;

    ChunkLeaseRenewer(LedgerStore ledger, ChunkClaim claim, EngineTimings timings) {
        this.ledger = ledger;
        this.claim = claim;
        this.timings = timings;
        // Give up at 80% of the TTL: leaves margin for clock drift between this process and the database.
        this.deadlineSlackNanos = timings.leaseTtl().toNanos() * 8 / 10;
        long every = timings.renewEvery().toMillis();
        this.task = TIMER.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
    }

    private void renew() {
        if (finished || refused) {
            return;
        }
        try {
            if (ledger.renewChunk(claim, timings.leaseTtl(), rowsCopied)) {
                lastRenewedNanos = System.nanoTime();
            } else {
                refused = true;
            }
        } catch (RuntimeException e) {
            // Transient: the deadline below decides when silence means the lease is gone.
        }
    }

    @Override
    public boolean lost() {
        return refused || (!finished && System.nanoTime() - lastRenewedNanos > deadlineSlackNanos);
    }

    @Override
    public void copied(long rows) {
        rowsCopied = rows;
    }

    @Override
    public void copyFinished() {
        finished = true;
    }

    @Override
    public void close() {
        finished = true;
        task.cancel(false);
    }
}
