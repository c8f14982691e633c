package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.campaign.ChunkSpec;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkPlanner;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.plan.UuidKeys;
import io.dpone.backfill.pgembedded.SharedEmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The planner's coverage property, proven on a real PostgreSQL server with the exact predicate text the source
 * query uses: for random bucket counts every key satisfies exactly one chunk's predicate, and it is the chunk the
 * planner locates for it; and a reconciliation pass's range number (one search over the ranges' lower bounds) names
 * that same chunk.
 */
public class PostgresChunkPredicateCoverageIT {
    private static final long SEED = 0xc0ffeeL;
    private static Connection db;

    @BeforeAll
    static void connect() throws SQLException {
        String database = SharedEmbeddedPostgres.freshDatabase("coverage");
        db = SharedEmbeddedPostgres.get().connect(database);
    }

    @AfterAll
    static void disconnect() throws SQLException {
        db.close();
    }

    @Test
    void everyUuidKeyMatchesExactlyOneChunkPredicate() throws SQLException {
        Random random = new Random(SEED);
        for (int c = 0; c < 12; c++) {
            int buckets = c == 0 ? 1 : 1 + random.nextInt(c % 4 == 0 ? 4096 : 700);
            ChunkPlan plan = ChunkPlanner.plan(spec(ChunkKind.UUID, buckets, null, null));
            List<BigInteger> keys = new ArrayList<>(List.of(BigInteger.ZERO, UuidKeys.SPACE.subtract(BigInteger.ONE)));
            for (int i = 0; i < 1500; i++) {
                keys.add(new BigInteger(128, random));
            }
            boundaryKeys(plan, keys, 400);
            loadKeys("uuid", keys, plan);
            assertEveryKeyInExactlyOneChunk(plan, "uuid buckets=" + buckets);
        }
    }

    @Test
    void everyIntegerKeyMatchesExactlyOneChunkPredicateIncludingOutsideTheBounds() throws SQLException {
        Random random = new Random(SEED + 1);
        for (int c = 0; c < 12; c++) {
            long lower = random.nextInt(2_000_000) - 1_000_000L;
            long span = 1 + random.nextInt(c % 3 == 0 ? 100 : 10_000_000);
            long upper = lower + span - 1;
            int buckets = 1 + random.nextInt((int) Math.min(span, c % 4 == 0 ? 4096 : 700));
            ChunkPlan plan = ChunkPlanner.plan(spec(ChunkKind.INTEGER, buckets, lower, upper));
            List<BigInteger> keys = new ArrayList<>(List.of(BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE),
                    BigInteger.valueOf(lower - 1), BigInteger.valueOf(lower), BigInteger.valueOf(upper), BigInteger.valueOf(upper + 1)));
            for (int i = 0; i < 1500; i++) {
                keys.add(BigInteger.valueOf(lower - span / 10 + (long) (random.nextDouble() * span * 1.2)));
            }
            boundaryKeys(plan, keys, 400);
            loadKeys("bigint", keys, plan);
            assertEveryKeyInExactlyOneChunk(plan, "integer [" + lower + "," + upper + "] buckets=" + buckets);
        }
    }

    private static ChunkSpec spec(ChunkKind kind, int buckets, Long lower, Long upper) {
        ChunkSpec s = new ChunkSpec();
        s.setColumn("k");
        s.setKind(kind);
        s.setBuckets(buckets);
        s.setLowerBound(lower);
        s.setUpperBound(upper);
        return s;
    }

    /** Each boundary and the key just below it: where an off-by-one would put a key in two chunks or none. */
    private static void boundaryKeys(ChunkPlan plan, List<BigInteger> keys, int max) {
        int step = Math.max(1, plan.size() / max);
        for (int i = 1; i < plan.size(); i += step) {
            BigInteger bound = plan.chunk(i).lowerInclusive();
            keys.add(bound);
            keys.add(bound.subtract(BigInteger.ONE));
        }
    }

    /** Loads the keys with the chunk the planner (in Java) assigns, so SQL and Java can be compared row by row. */
    private static void loadKeys(String type, List<BigInteger> keys, ChunkPlan plan) throws SQLException {
        try (Statement s = db.createStatement()) {
            s.execute("DROP TABLE IF EXISTS keys");
            s.execute("CREATE TABLE keys (k " + type + " NOT NULL, planned_chunk int NOT NULL)");
        }
        try (PreparedStatement insert = db.prepareStatement("INSERT INTO keys VALUES (?, ?)")) {
            for (BigInteger key : keys) {
                if (plan.kind() == ChunkKind.UUID) {
                    insert.setObject(1, UUID.fromString(UuidKeys.toText(key)));
                } else {
                    insert.setLong(1, key.longValueExact());
                }
                insert.setInt(2, plan.locate(key).id());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static void assertEveryKeyInExactlyOneChunk(ChunkPlan plan, String label) throws SQLException {
        StringBuilder matches = new StringBuilder();
        StringBuilder which = new StringBuilder("CASE");
        for (ChunkRange chunk : plan.chunks()) {
            String predicate = PostgresChunkPredicate.render(plan, chunk);
            matches.append(matches.length() == 0 ? "" : " + ").append("(").append(predicate).append(")::int");
            which.append(" WHEN ").append(predicate).append(" THEN ").append(chunk.id());
        }
        which.append(" END");
        String sql = "SELECT count(*) FILTER (WHERE " + matches + " <> 1),"
                + " count(*) FILTER (WHERE (" + which + ") IS DISTINCT FROM planned_chunk), count(*),"
                + " count(*) FILTER (WHERE " + PostgresChunkPredicate.rangeNumber(plan, "k") + " IS DISTINCT FROM planned_chunk)"
                + " FROM keys";
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            assertThat(rs.getLong(1)).as(label + ": keys matched by zero or several chunk predicates").isZero();
            assertThat(rs.getLong(2)).as(label + ": keys whose SQL chunk differs from the planner's").isZero();
            assertThat(rs.getLong(3)).as(label + ": keys tested").isGreaterThan(1000);
            assertThat(rs.getLong(4)).as(label + ": keys whose reconciliation range number differs from the planner's chunk").isZero();
        }
    }
}
