package io.dpone.backfill.e2e;

import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import io.dpone.backfill.testsupport.postgres.PostgresDatabase;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random fault schedules on real processes (issue 10, item 5). Each schedule, drawn from a logged seed, arms random
 * fault points in random lanes' chunks (and sometimes the driver's), and the test either SIGKILLs each process that
 * freezes there or wakes it later as a zombie. Then one `backfill resume` without faults at most, and the invariants:
 * the published table equals the source, one receipt per chunk agreeing with the ledger, one publication and one
 * handoff, and a reader that polled the live table throughout never saw a partial table.
 *
 * CI runs {@code backfill.schedules} schedules (2 by default); a long run: {@code -Dbackfill.schedules=50}. Replay
 * one: {@code -Dbackfill.faultSeed=<seed> -Dbackfill.schedules=1}.
 */
class RandomFaultSchedulesIT {
    private static final String[] LANE_POINTS = {"after-claim", "mid-copy", "before-commit", "after-commit"};
    private static final Pattern FAULT = Pattern.compile("FAULT (\\S+) chunk=(-?\\d+) pid=(\\d+)");

    @TestFactory
    Stream<DynamicTest> randomFaultSchedulesKeepEveryInvariant() {
        long base = Long.getLong("backfill.faultSeed", System.currentTimeMillis());
        int schedules = Integer.getInteger("backfill.schedules", 2);
        System.out.println("random fault schedules: " + schedules + " from seed " + base
                + " (replay one: -Dbackfill.faultSeed=<seed> -Dbackfill.schedules=1)");
        return IntStream.range(0, schedules).mapToObj(i -> base + i)
                .map(seed -> DynamicTest.dynamicTest("seed " + seed, () -> runSchedule(seed)));
    }

    private record Fault(String point, int chunk, boolean zombie) {
        String armed() {
            return point + ":" + chunk;
        }
    }

    private void runSchedule(long seed) throws Exception {
        Random random = new Random(seed);
        int rows = 2000 + random.nextInt(4000);
        int chunks = 6 + random.nextInt(11);
        int lanes = 1 + random.nextInt(3);
        List<Fault> faults = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        Set<String> armed = new HashSet<>();
        while (faults.size() < count) {
            Fault f = new Fault(LANE_POINTS[random.nextInt(LANE_POINTS.length)], random.nextInt(chunks), random.nextInt(3) == 0);
            if (armed.add(f.armed())) {
                faults.add(f);
            }
        }
        boolean driverFault = random.nextInt(3) == 0;
        String schedule = "seed " + seed + ": " + rows + " rows, " + chunks + " chunks, " + lanes + " lane(s), lane faults "
                + faults + (driverFault ? ", driver killed before publishing" : "");
        System.out.println("schedule " + schedule);

        Path dir = Files.createTempDirectory("fault-schedule-" + seed);
        CampaignFixture f = new CampaignFixture(dir, "schedule_" + Long.toUnsignedString(seed, 36), rows,
                CampaignYaml.uuidChunks(chunks), lanes);
        Map<String, String> env = f.env();
        env.put("BACKFILL_LANE_FAULT", String.join(",", faults.stream().map(Fault::armed).toList()));
        if (driverFault) {
            env.put("BACKFILL_FAULT", "before-publish:-1");
        }
        Map<String, Boolean> zombieByPoint = new HashMap<>();
        faults.forEach(x -> zombieByPoint.put(x.armed(), x.zombie()));

        LiveTableReader reader = new LiveTableReader(f.target);
        reader.start();
        int resumes = 0;
        FaultHandler handler = new FaultHandler(zombieByPoint);
        try (LaunchedProcess run = LaunchedProcess.start(dir, env, f.runArgs("run"))) {
            long deadline = System.nanoTime() + Duration.ofSeconds(240).toNanos();
            while (run.process.isAlive()) {
                assertThat(System.nanoTime()).as("schedule %s did not settle:%n%s", schedule, run.output()).isLessThan(deadline);
                handler.handle(run.output(), dir.resolve("lanes"), f);
                Thread.sleep(100);
            }
            handler.wakeZombies();
            int exit = run.process.exitValue();
            if (exit != 0) {
                // One action: a resume without faults finishes whatever the schedule left.
                resumes++;
                String resumed = f.files.cli(f.env(), Duration.ofSeconds(180), 0, f.runArgs("resume"));
                assertThat(resumed).as(schedule).contains("HandoffCommitted");
            }
        } finally {
            reader.stop();
            handler.killLeftovers();
        }
        assertThat(resumes).as("at most one resume action").isLessThanOrEqualTo(1);
        f.assertPublishedExactlyTheSource();
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt")).as(schedule).isEqualTo(chunks);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.chunk c JOIN backfill_state.chunk_receipt r"
                + " USING (run_key, chunk_id) WHERE c.state <> 'committed' OR r.epoch <> c.epoch OR r.rows_loaded <> c.rows_loaded"))
                .as("receipts and ledger agree, %s", schedule).isZero();
        assertThat(f.target.queryForLong("SELECT coalesce(sum(rows_loaded), 0) FROM backfill_state.chunk_receipt"))
                .as("receipts count every source row once").isEqualTo(rows);
        assertThat(f.target.queryForLong("SELECT count(*) FROM backfill_state.handoff_receipt")).isEqualTo(1);
        assertThat(reader.seen()).as("the live table was either the old one or the whole published one, %s", schedule)
                .isSubsetOf(Set.of(1L, (long) rows));
        System.out.println("schedule " + schedule + ": passed (" + resumes + " resume, live counts seen " + reader.seen() + ")");
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** Kills each process frozen at an armed point, or lets it sleep past its lease and wakes it (a zombie). */
    private static final class FaultHandler {
        private final Map<String, Boolean> zombieByPoint;
        /** pid and point: one process can freeze at several armed points in turn. */
        private final Set<String> handled = new HashSet<>();
        private final Set<Long> seenPids = new HashSet<>();
        private final List<Long> zombies = new ArrayList<>();

        FaultHandler(Map<String, Boolean> zombieByPoint) {
            this.zombieByPoint = zombieByPoint;
        }

        void handle(String driverOutput, Path laneLogs, CampaignFixture f) throws Exception {
            StringBuilder all = new StringBuilder(driverOutput);
            if (Files.isDirectory(laneLogs)) {
                try (var files = Files.list(laneLogs)) {
                    for (Path p : files.toList()) {
                        all.append('\n').append(Files.readString(p));
                    }
                }
            }
            Matcher m = FAULT.matcher(all);
            while (m.find()) {
                long pid = Long.parseLong(m.group(3));
                if (!handled.add(pid + "/" + m.group(1) + ":" + m.group(2))) {
                    continue;
                }
                seenPids.add(pid);
                awaitStopped(pid);
                if (Boolean.TRUE.equals(zombieByPoint.get(m.group(1) + ":" + m.group(2)))) {
                    zombies.add(pid);
                    // Past its chunk lease (3 s), then awake: whatever it still tries is fenced by epoch.
                    Thread.sleep(4000);
                    signal("CONT", pid);
                } else {
                    signal("KILL", pid);
                }
            }
        }

        void wakeZombies() throws Exception {
            for (long pid : zombies) {
                signal("CONT", pid);
            }
        }

        /** A lane still frozen when the schedule ends must not outlive it (its driver can no longer reach it). */
        void killLeftovers() throws Exception {
            for (long pid : seenPids) {
                if (Files.exists(Path.of("/proc", Long.toString(pid)))) {
                    signal("KILL", pid);
                }
            }
        }

        private static void awaitStopped(long pid) throws Exception {
            Path stat = Path.of("/proc", Long.toString(pid), "stat");
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (System.nanoTime() < deadline && Files.exists(stat)) {
                String s = Files.readString(stat);
                if (s.charAt(s.lastIndexOf(')') + 2) == 'T') {
                    return;
                }
                Thread.sleep(20);
            }
        }

        private static void signal(String signal, long pid) throws Exception {
            new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor();
        }
    }

    /** Polls the live table's row count from its own session throughout the run. */
    private static final class LiveTableReader {
        private final PostgresDatabase target;
        private final Set<Long> seen = ConcurrentHashMap.newKeySet();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private Thread thread;

        LiveTableReader(PostgresDatabase target) {
            this.target = target;
        }

        void start() {
            thread = new Thread(() -> {
                try (Connection c = target.connect(); Statement s = c.createStatement()) {
                    while (running.get()) {
                        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM public.items")) {
                            rs.next();
                            seen.add(rs.getLong(1));
                        }
                        Thread.sleep(20);
                    }
                } catch (Exception e) {
                    seen.add(-1L);
                }
            }, "live-table-reader");
            thread.setDaemon(true);
            thread.start();
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join(5000);
        }

        Set<Long> seen() {
            return seen;
        }
    }
}
