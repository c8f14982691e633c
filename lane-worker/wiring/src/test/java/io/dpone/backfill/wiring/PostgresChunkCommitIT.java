package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.EngineTimings;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.lane.ChunkCommitter;
import io.dpone.backfill.core.lane.ChunkOutcome;
import io.dpone.backfill.core.lane.ChunkProtocol;
import io.dpone.backfill.core.lane.LeaseWatch;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.source.postgres.PostgresChunkSource;
import io.dpone.backfill.targets.postgres.PostgresChunkSink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one-transaction chunk commit on real PostgreSQL: rows, receipt and ledger row commit or vanish together. */
class PostgresChunkCommitIT {
    private static final String ITEMS = "CREATE TABLE public.items (id uuid NOT NULL PRIMARY KEY, code text, qty integer NOT NULL DEFAULT 0, note text)";
    private CampaignHarness h;
    private CampaignBlueprint b;
    private CampaignRuntime session;
    private Connection source;
    private Connection sink;

    @BeforeEach
    void prepare() throws Exception {
        h = new CampaignHarness();
        h.source.execute(ITEMS, "INSERT INTO public.items SELECT gen_random_uuid(), 'c' || i, i, 'n' FROM generate_series(1, 8000) i");
        h.target.execute(ITEMS);
        b = CampaignHarness.blueprint(CampaignHarness.campaign("commit_v1", "{column: id, kind: uuid, buckets: 4}",
                "  publication: {mode: shadow_swap}\n"));
        session = h.session(b);
        session.engine().open(session.preflight(b, null));
        var lease = session.ledger().acquireLease(b.identity().runKey(), "driver", CampaignHarness.FAST.leaseTtl()).orElseThrow();
        CampaignHarness.stepUntil(session, lease, CampaignPhase.Loading);
        source = h.source.connect();
        sink = h.target.connect();
    }

    @AfterEach
    void close() throws Exception {
        source.close();
        sink.close();
        session.close();
        h.close();
    }

    private ChunkCommitter committer() throws Exception {
        return committer(Duration.ofSeconds(2));
    }

    private ChunkCommitter committer(Duration receiptWait) throws Exception {
        List<String> columns = session.publisher().shape("public", "items__bf_shadow").columnNames();
        return new ChunkProtocol(new PostgresChunkSource(source, b.plan(), "public", "items", columns),
                new PostgresChunkSink(sink, "backfill_state", "public", "items__bf_shadow", columns, receiptWait), FaultPoints.NONE);
    }

    private ChunkClaim claim(LedgerStore ledger, int chunkId, String owner) {
        ChunkRecord seen = ledger.chunks(b.identity().runKey(), chunkId, 1).get(0);
        return ledger.claim(b.identity().runKey(), seen, owner, Duration.ofSeconds(30)).orElseThrow();
    }

    private static LeaseWatch watch(boolean lost) {
        return new LeaseWatch() {
            @Override
            public boolean lost() {
                return lost;
            }

            @Override
            public void copyFinished() {
            }
        };
    }

    private long shadowRows() throws Exception {
        return h.target.queryForLong("SELECT count(*) FROM public.items__bf_shadow");
    }

    @Test
    void rowsReceiptAndLedgerRowCommitTogether() throws Exception {
        ChunkClaim claim = claim(session.ledger(), 1, "lane-a");
        ChunkOutcome outcome = committer().commit(claim, b.plan().chunk(1), watch(false));
        assertThat(outcome.kind()).isEqualTo(ChunkOutcome.Kind.COMMITTED);
        assertThat(outcome.rowsExtracted()).isEqualTo(outcome.rowsLoaded()).isGreaterThan(1000);
        assertThat(shadowRows()).isEqualTo(outcome.rowsLoaded());
        assertThat(h.target.queryForLong("SELECT rows_loaded FROM backfill_state.chunk_receipt WHERE chunk_id = 1")).isEqualTo(outcome.rowsLoaded());
        assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE chunk_id = 1 AND state = 'committed'")).isEqualTo(1);
    }

    @Test
    void aLeaseLostMidCopyRollsEverythingBack() throws Exception {
        ChunkClaim claim = claim(session.ledger(), 2, "lane-a");
        ChunkOutcome outcome = committer().commit(claim, b.plan().chunk(2), watch(true));
        assertThat(outcome.kind()).isEqualTo(ChunkOutcome.Kind.LEASE_LOST);
        assertThat(shadowRows()).isZero();
        assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt")).isZero();
        assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'committed'")).isZero();
    }

    @Test
    void afterALeaseLostMidCopyTheSameSourceConnectionCommitsTheNextChunk() throws Exception {
        ChunkCommitter committer = committer();
        assertThat(committer.commit(claim(session.ledger(), 2, "lane-a"), b.plan().chunk(2), watch(true)).kind())
                .isEqualTo(ChunkOutcome.Kind.LEASE_LOST);
        ChunkOutcome next = committer.commit(claim(session.ledger(), 3, "lane-a"), b.plan().chunk(3), watch(false));
        assertThat(next.kind()).isEqualTo(ChunkOutcome.Kind.COMMITTED);
        assertThat(shadowRows()).isEqualTo(next.rowsLoaded()).isGreaterThan(1000);
    }

    @Test
    void aStaleEpochCannotCommitAndLeavesNoRows() throws Exception {
        ChunkClaim stale = claim(session.ledger(), 0, "lane-a");
        // Another lane takes the chunk over: the epoch moves on (forced here by expiring the first lease).
        h.target.execute("UPDATE backfill_state.chunk SET lease_expires = now() - interval '1 second' WHERE chunk_id = 0");
        ChunkClaim fresh = claim(session.ledger(), 0, "lane-b");
        assertThat(fresh.epoch()).isEqualTo(stale.epoch() + 1);
        ChunkOutcome outcome = committer().commit(stale, b.plan().chunk(0), watch(false));
        assertThat(outcome.kind()).isEqualTo(ChunkOutcome.Kind.LEASE_LOST);
        assertThat(shadowRows()).isZero();
        assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt")).isZero();
        ChunkOutcome winner = committer().commit(fresh, b.plan().chunk(0), watch(false));
        assertThat(winner.kind()).isEqualTo(ChunkOutcome.Kind.COMMITTED);
        assertThat(shadowRows()).isEqualTo(winner.rowsLoaded());
    }

    @Test
    void aZombiesUncommittedReceiptMakesTheCommitWaitTheReceiptWaitThenFailWithNothingLoaded() throws Exception {
        ChunkClaim claim = claim(session.ledger(), 1, "lane-a");
        try (Connection zombie = h.target.connect()) {
            zombie.setAutoCommit(false);
            try (Statement s = zombie.createStatement()) {
                s.execute("INSERT INTO backfill_state.chunk_receipt (run_key, chunk_id, epoch, owner) VALUES ('"
                        + b.identity().runKey() + "', 1, 0, 'zombie')");
            }
            long started = System.nanoTime();
            assertThatThrownBy(() -> committer(Duration.ofMillis(700)).commit(claim, b.plan().chunk(1), watch(false)))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("55P03"));
            Duration waited = Duration.ofNanos(System.nanoTime() - started);
            assertThat(waited).isBetween(Duration.ofMillis(600), Duration.ofSeconds(5));
            zombie.rollback();
        }
        assertThat(shadowRows()).isZero();
        assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'committed'")).isZero();
    }

    @Test
    void lanesWaitForAZombiesReceiptForOneChunkLeaseNotThePublishersLockTimeout() {
        EngineTimings timings = new EngineTimings(Duration.ofSeconds(90), Duration.ofSeconds(30), Duration.ofSeconds(120),
                Duration.ofSeconds(7));
        assertThat(LaneRuntime.receiptWait(timings)).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void anExistingReceiptIsNeverAppendedAgain() throws Exception {
        ChunkClaim first = claim(session.ledger(), 3, "lane-a");
        ChunkOutcome committed = committer().commit(first, b.plan().chunk(3), watch(false));
        // Simulate a replay that finds the chunk claimable again (e.g. a ledger row reset by hand).
        h.target.execute("UPDATE backfill_state.chunk SET state = 'pending' WHERE chunk_id = 3");
        ChunkClaim replay = claim(session.ledger(), 3, "lane-b");
        ChunkOutcome outcome = committer().commit(replay, b.plan().chunk(3), watch(false));
        assertThat(outcome.kind()).isEqualTo(ChunkOutcome.Kind.ALREADY_RECEIPTED);
        assertThat(shadowRows()).isEqualTo(committed.rowsLoaded());
    }
}
