package io.dpone.backfill.cli.certify;

import io.dpone.backfill.connect.ConnectionSettings;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A reader of the live scratch table through a whole scenario, the way an application would see it: it counts the
 * rows every few milliseconds on its own connection. The only counts a correct publication can show are the old
 * table's and the complete new table's; any other count, or the table missing, is a partial-live exposure.
 */
public final class LiveReader implements AutoCloseable {
    private final ConnectionSettings target;
    private final String countSql;
    private final Set<Long> allowed;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final TreeMap<Long, Long> seen = new TreeMap<>();
    private final Thread thread;
    private long reads;
    private long exposures;
    private long missingTable;
    private long errors;
    private String firstExposure;

    LiveReader(ConnectionSettings target, String countSql, Set<Long> allowed) {
        this.target = target;
        this.countSql = countSql;
        this.allowed = allowed;
        this.thread = new Thread(this::poll, "certify-live-reader");
        thread.setDaemon(true);
        thread.start();
    }

    private void poll() {
        while (running.get()) {
            try (Connection c = target.open("backfill-certify-reader"); Statement s = c.createStatement()) {
                s.setQueryTimeout(5);
                while (running.get()) {
                    try (ResultSet rs = s.executeQuery(countSql)) {
                        rs.next();
                        record(rs.getLong(1));
                    }
                    Thread.sleep(10);
                }
            } catch (SQLException e) {
                recordError(e);
                sleep();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void record(long count) {
        reads++;
        seen.merge(count, 1L, Long::sum);
        if (!allowed.contains(count)) {
            exposures++;
            if (firstExposure == null) {
                firstExposure = "the live table showed " + count + " rows (allowed: " + allowed + ")";
            }
        }
    }

    private synchronized void recordError(SQLException e) {
        String message = String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT);
        // A reader blocked by the swap's lock is fine (it times out and reads again); a vanished table is not.
        if (message.contains("does not exist") || message.contains("invalid object name")) {
            missingTable++;
            exposures++;
            if (firstExposure == null) {
                firstExposure = "the live table was missing: " + e.getMessage();
            }
        } else {
            errors++;
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    synchronized long reads() {
        return reads;
    }

    synchronized long exposures() {
        return exposures;
    }

    synchronized long missingTable() {
        return missingTable;
    }

    synchronized long errors() {
        return errors;
    }

    synchronized String firstExposure() {
        return firstExposure;
    }

    /** Counts seen, each with how often. */
    synchronized TreeMap<Long, Long> seen() {
        return new TreeMap<>(seen);
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.interrupt();
        thread.join(10_000);
    }
}
