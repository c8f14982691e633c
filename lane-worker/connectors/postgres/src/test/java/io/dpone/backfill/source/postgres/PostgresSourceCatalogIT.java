package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.ChunkSpec;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.source.AnchorCheck;
import io.dpone.backfill.core.source.ChunkRowEstimates;
import io.dpone.backfill.core.publish.ColumnShape;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The XMin anchor and source shapes, read from a real PostgreSQL server. */
public class PostgresSourceCatalogIT {
    private static String database;
    private static Connection source;
    private static PostgresSourceCatalog catalog;

    @BeforeAll
    static void connect() throws SQLException {
        database = SharedEmbeddedPostgres.freshDatabase("source");
        source = SharedEmbeddedPostgres.get().connect(database);
        catalog = new PostgresSourceCatalog(source);
    }

    @AfterAll
    static void disconnect() throws SQLException {
        source.close();
    }

    @Test
    void theCapturedAnchorIsTheCurrentSnapshotXminAndUsable() throws SQLException {
        String anchor = catalog.captureAnchor();

        assertThat(anchor).matches("[0-9]+");
        assertThat(new BigInteger(anchor)).isLessThanOrEqualTo(new BigInteger(text("SELECT pg_current_xact_id()::text")));
        assertThat(catalog.checkAnchor(anchor)).isEqualTo(AnchorCheck.ok());
    }

    @Test
    void theAnchorStaysBehindATransactionStillInProgress() throws SQLException {
        try (Connection writer = SharedEmbeddedPostgres.get().connect(database)) {
            writer.setAutoCommit(false);
            long inProgress;
            try (Statement s = writer.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_current_xact_id()::text")) {
                rs.next();
                inProgress = Long.parseLong(rs.getString(1));
            }
            text("SELECT pg_current_xact_id()::text"); // later transactions commit meanwhile

            assertThat(Long.parseLong(catalog.captureAnchor()))
                    .as("rows of the open transaction may commit after the snapshot: the anchor must not pass it")
                    .isLessThanOrEqualTo(inProgress);
            writer.rollback();
        }
    }

    @Test
    void anAnchorAheadOfTheServerIsUnusable() {
        BigInteger current = new BigInteger(catalog.captureAnchor());

        AnchorCheck check = catalog.checkAnchor(current.add(BigInteger.valueOf(1_000_000)).toString());

        assertThat(check.usable()).isFalse();
        assertThat(check.reason()).contains("ahead");
    }

    @Test
    void anAnchorTwoBillionTransactionsBehindIsUnusableAndOneLessIsStillUsable() {
        BigInteger current = BigInteger.valueOf(2_000_000_005L);

        AnchorCheck tooOld = PostgresSourceCatalog.assess("5", current);

        assertThat(tooOld.usable()).isFalse();
        assertThat(tooOld.reason()).contains("too old");
        assertThat(PostgresSourceCatalog.assess("6", current).usable()).isTrue();
        assertThat(PostgresSourceCatalog.assess("2000000005", current).usable()).isTrue();
    }

    @Test
    void somethingThatIsNotATransactionIdIsUnusable() {
        for (String bad : Arrays.asList(null, "", "abc", "-5", "12.5", "1e9", " 42", "123456789012345678901234")) {
            AnchorCheck check = catalog.checkAnchor(bad);
            assertThat(check.usable()).as(String.valueOf(bad)).isFalse();
            assertThat(check.reason()).contains("not a transaction id");
        }
    }

    @Test
    void shapeListsLiveColumnsInOrderWithTypesAndNullability() throws SQLException {
        exec("CREATE TABLE public.events (event_id bigint NOT NULL, gone text, payload varchar(40), amount numeric(12,3) NOT NULL, at timestamptz)");
        exec("ALTER TABLE public.events DROP COLUMN gone");

        TableShape shape = catalog.shape("public", "events");

        assertThat(shape.columns()).containsExactly(
                new ColumnShape("event_id", "bigint", false),
                new ColumnShape("payload", "character varying(40)", true),
                new ColumnShape("amount", "numeric(12,3)", false),
                new ColumnShape("at", "timestamp with time zone", true));
        assertThat(catalog.shape("public", "no_such_table").exists()).isFalse();
    }

    private static ChunkPlan integerPlan(int buckets, long lower, long upper) {
        ChunkSpec s = new ChunkSpec();
        s.setColumn("id");
        s.setKind(ChunkKind.INTEGER);
        s.setBuckets(buckets);
        s.setLowerBound(lower);
        s.setUpperBound(upper);
        return ChunkPlanner.plan(s);
    }

    /** Rows per chunk counted exactly with the lanes' own predicates. */
    private static List<Long> exactCounts(String table, ChunkPlan plan) throws SQLException {
        List<Long> counts = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            counts.add(Long.parseLong(text("SELECT count(*) FROM " + table + " WHERE "
                    + PostgresChunkPredicate.render(plan, plan.chunk(i)))));
        }
        return counts;
    }

    /** 40,000 rows, 70% of them keyed inside chunk 5 of 16 over [0, 1,600,000); the rest spread evenly. */
    private static void skewed(String table, String options) throws SQLException {
        exec("CREATE TABLE " + table + " (id bigint PRIMARY KEY, v text)" + options);
        exec("INSERT INTO " + table + " SELECT 500000 + i, 'hot' FROM generate_series(0, 27999) i");
        exec("INSERT INTO " + table + " SELECT i * 133 + 1, 'cold' FROM generate_series(0, 11999) i"
                + " WHERE i * 133 + 1 NOT BETWEEN 500000 AND 527999");
    }

    @Test
    void anAnalyzedSkewedTableIsEstimatedFromItsHistogramAndTheHeavyChunkComesOutHeavy() throws SQLException {
        skewed("public.est_hist", "");
        analyzeUntilSettled("est_hist");
        ChunkPlan plan = integerPlan(16, 0, 1_600_000);
        List<Long> exact = exactCounts("public.est_hist", plan);

        ChunkRowEstimates e = catalog.estimateChunkRows("public", "est_hist", plan);

        assertThat(e.basis()).startsWith("pg_stats histogram of 101 bounds");
        assertThat(e.rows()).hasSize(16);
        long total = exact.stream().mapToLong(Long::longValue).sum();
        assertThat((double) e.total()).isCloseTo(total, within(total * 0.05));
        assertThat((double) e.rows().get(5)).as("the heavy chunk").isCloseTo(exact.get(5), within(exact.get(5) * 0.05));
    }

    @Test
    void aTableNeverAnalyzedIsCountedWholeWhenSmallAndSampledWhenLarger() throws SQLException {
        // autovacuum off: no ANALYZE can slip in and change the basis under the test.
        skewed("public.est_sample", " WITH (autovacuum_enabled = false)");
        ChunkPlan plan = integerPlan(16, 0, 1_600_000);
        List<Long> exact = exactCounts("public.est_sample", plan);

        ChunkRowEstimates whole = catalog.estimateChunkRows("public", "est_sample", plan);
        long rows = Long.parseLong(text("SELECT count(*) FROM public.est_sample"));
        assertThat(whole.basis()).startsWith("count of all " + rows + " rows");
        assertThat(whole.rows()).as("a table within the sample budget is read whole: exact").isEqualTo(exact);

        long pages = Long.parseLong(text("SELECT pg_relation_size('public.est_sample') / current_setting('block_size')::int"));
        ChunkRowEstimates sampled = new PostgresRowEstimator(source, (int) (pages / 4)).estimate("public", "est_sample", plan);
        assertThat(sampled.basis()).startsWith("sample of ").contains("TABLESAMPLE SYSTEM");
        assertThat((double) sampled.total()).isCloseTo(rows, within(rows * 0.35));
        assertThat(sampled.rows().get(5)).as("the heavy chunk stays the heaviest").isEqualTo(sampled.rows().stream().max(Long::compare).orElseThrow());
    }

    @Test
    void aMissingTableHasNoEstimateAndSaysWhy() {
        assertThat(catalog.estimateChunkRows("public", "no_such_table", integerPlan(4, 0, 100)).basis())
                .startsWith("none: source table public.no_such_table not found");
    }

    private static String text(String sql) throws SQLException {
        try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * ANALYZE as a DBA leaves it after loading. The inserts' counts reach the shared statistics up to seconds after
     * they commit: flushed after the ANALYZE, they count as changes since it, and the estimator would rightly call
     * the histogram stale. So flush them first, and check.
     */
    private static void analyzeUntilSettled(String table) throws SQLException {
        for (int i = 0; i < 50; i++) {
            exec("SELECT pg_catalog.pg_stat_force_next_flush()");
            exec("ANALYZE public." + table);
            if ("0".equals(text("SELECT n_mod_since_analyze FROM pg_catalog.pg_stat_user_tables WHERE relid = 'public."
                    + table + "'::regclass"))) {
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("n_mod_since_analyze of " + table + " never settled at 0");
    }

    private static void exec(String sql) throws SQLException {
        try (Statement s = source.createStatement()) {
            s.execute(sql);
        }
    }
}
