package io.dpone.backfill.operator.driver;

import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.LedgerStore;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches chunk rows of loading campaigns for the metrics: a chunk seen running and later seen committed gives an
 * observed duration (resolution: the reconcile interval), and a running chunk whose lease has expired is counted
 * once per claim epoch. Memory is bounded by the plan (a bit per chunk, an entry per running chunk).
 */
final class ChunkWatch {
    private static final int PAGE = 2000;

    private static final class Run {
        final BitSet committed = new BitSet();
        final Map<Integer, Instant> runningSince = new HashMap<>();
        final Set<Long> expired = new HashSet<>();
    }

    private final Map<String, Run> runs = new ConcurrentHashMap<>();

    DriveOutcome.ChunkActivity observe(LedgerStore ledger, String runKey, Instant now) {
        Run run = runs.computeIfAbsent(runKey, k -> new Run());
        List<Double> durations = new ArrayList<>();
        int expirations = 0;
        synchronized (run) {
            for (int offset = 0; ; offset += PAGE) {
                List<ChunkRecord> page = ledger.chunks(runKey, offset, PAGE);
                for (ChunkRecord c : page) {
                    switch (c.state()) {
                        case RUNNING -> {
                            run.runningSince.putIfAbsent(c.chunkId(), now);
                            if (c.leaseExpired() && run.expired.add(((long) c.chunkId() << 32) | (c.epoch() & 0xffffffffL))) {
                                expirations++;
                            }
                        }
                        case COMMITTED -> {
                            if (!run.committed.get(c.chunkId())) {
                                run.committed.set(c.chunkId());
                                Instant since = run.runningSince.remove(c.chunkId());
                                if (since != null) {
                                    durations.add(Duration.between(since, now).toMillis() / 1000.0);
                                }
                            }
                        }
                        default -> run.runningSince.remove(c.chunkId());
                    }
                }
                if (page.size() < PAGE) {
                    break;
                }
            }
        }
        return new DriveOutcome.ChunkActivity(durations, expirations);
    }

    void forget(String runKey) {
        runs.remove(runKey);
    }
}
