package io.dpone.backfill.lane;

import com.sun.management.GarbageCollectionNotificationInfo;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * A lane's peak heap after garbage collection: the heap its live objects really need, which is what shows that
 * chunks are streamed (it stays flat however large a chunk is). Recorded from the JVM's GC notifications and
 * written at the lane's exit when {@code -Dbackfill.lane.heapReport=DIR} is set (`backfill bench` sets it).
 */
public final class LaneHeapWatch {
    public static final String PROPERTY = "backfill.lane.heapReport";
    public static final String FILE_PREFIX = "lane-heap-";

    private final AtomicLong peak = new AtomicLong();
    private final Set<String> heapPools;

    private LaneHeapWatch() {
        this.heapPools = ManagementFactory.getMemoryPoolMXBeans().stream().filter(p -> p.getType() == MemoryType.HEAP)
                .map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener((notification, handback) -> {
                    if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
                        record(GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData())
                                .getGcInfo().getMemoryUsageAfterGc());
                    }
                }, null, null);
            }
        }
    }

    /** Starts watching when the property names a directory; otherwise returns null and costs nothing. */
    public static LaneHeapWatch startIfRequested() {
        return System.getProperty(PROPERTY) == null ? null : new LaneHeapWatch();
    }

    private void record(Map<String, MemoryUsage> afterGc) {
        long used = afterGc.entrySet().stream().filter(e -> heapPools.contains(e.getKey()))
                .mapToLong(e -> e.getValue().getUsed()).sum();
        peak.accumulateAndGet(used, Math::max);
    }

    /** One full collection at the end counts too (a lane whose chunks never filled the young generation). */
    public void writeReport(int lane) throws IOException {
        System.gc();
        peak.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
        Path dir = Path.of(System.getProperty(PROPERTY));
        Files.writeString(dir.resolve(FILE_PREFIX + lane + "-" + ProcessHandle.current().pid() + ".txt"), Long.toString(peak.get()));
    }
}
