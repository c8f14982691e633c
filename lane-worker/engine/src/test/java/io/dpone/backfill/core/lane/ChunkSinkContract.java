package io.dpone.backfill.core.lane;

import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.digest.CanonicalJson;
import io.dpone.backfill.core.digest.ChunkDigest;
import io.dpone.backfill.core.digest.ContentDigester;
import io.dpone.backfill.core.encoding.RowEncoding;
import io.dpone.backfill.core.fault.FaultPoints;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.plan.ChunkRange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@link ChunkSink} contract, run through {@link ChunkProtocol} against every target adapter that can run here:
 * the rows, the receipt and the ledger row of a chunk commit together or not at all, on the real target. Rows come
 * from a generated source ({@code id} bigint, {@code code} text), as COPY text or as values, whichever the sink takes.
 */
public abstract class ChunkSinkContract {
    protected static final String STATE_SCHEMA = "backfill_state";
    private static final Duration CLAIM_TTL = Duration.ofSeconds(30);

    protected LedgerStore ledger;
    protected CampaignBlueprint blueprint;

    /** The ledger on a connection of its own to this test's (empty) target database. */
    protected abstract LedgerStore newLedger();

    /** The sink on a connection of its own, loading {@code id, code} into {@link #loadTable()}. */
    protected abstract ChunkSink sink(Duration receiptWait);

    /** A new connection to the target database, for counting and for a zombie's transaction. */
    protected abstract Connection targetConnection() throws SQLException;

    /** The load table, qualified as the target's SQL writes it; created empty by the subclass with id and code. */
    protected abstract String loadTable();

    /** Makes chunk {@code chunkId}'s lease expired by the database clock, as if its lane died. */
    protected abstract void expireChunkLease(String runKey, int chunkId) throws SQLException;

    /** The error a commit fails with when its receipt wait ran out behind another transaction's receipt. */
    protected abstract void assertReceiptWaitExpired(Throwable failure);

    @BeforeEach
    void openLedger() {
        ledger = newLedger();
        ledger.ensureSchema();
        String yaml = CampaignYamlFixture.replaceOnce(CampaignYamlFixture.postgres(), "buckets: 128", "buckets: 4");
        blueprint = CampaignBlueprint.of(CampaignReader.parse(yaml));
        ledger.createCampaign(blueprint, CanonicalJson.write(blueprint.definition().spec()));
    }

    @Test
    void rowsReceiptAndLedgerRowCommitTogether() throws Exception {
        ChunkOutcome outcome = commit(claim(1, "lane-a"), 2500, Duration.ofSeconds(5), false);

        assertThat(outcome).isEqualTo(ChunkOutcome.committed(2500, 2500));
        assertThat(count("SELECT count(*) FROM " + loadTable())).isEqualTo(2500);
        assertThat(count("SELECT rows_loaded FROM " + STATE_SCHEMA + ".chunk_receipt WHERE chunk_id = 1")).isEqualTo(2500);
        ChunkRecord chunk = ledger.chunks(runKey(), 1, 1).get(0);
        assertThat(chunk.state().dbValue()).isEqualTo("committed");
        assertThat(chunk.rowsLoaded()).isEqualTo(2500);
    }

    @Test
    void theReceiptRecordsTheContentDigestOfTheRowsStreamedInTheCommitTransaction() throws Exception {
        commit(claim(1, "lane-a"), 2500, Duration.ofSeconds(5), false);

        ContentDigester expected = new ContentDigester(2, new int[]{0});
        for (long i = 1; i <= 2500; i++) {
            expected.value(1_000_000L + i);
            expected.value("code-" + i);
            expected.endRow();
        }
        assertThat(ledger.chunkDigests(runKey())).containsOnlyKeys(1).containsEntry(1, expected.digest().wire());
        // A lost lease rolls the receipt back with its digest: nothing records rows that are not there.
        commit(claim(2, "lane-a"), 5000, Duration.ofSeconds(5), true);
        assertThat(ledger.chunkDigests(runKey())).containsOnlyKeys(1);
    }

    @Test
    void aLeaseLostMidStreamRollsEverythingBack() throws Exception {
        ChunkOutcome outcome = commit(claim(2, "lane-a"), 5000, Duration.ofSeconds(5), true);

        assertThat(outcome.kind()).isEqualTo(ChunkOutcome.Kind.LEASE_LOST);
        assertNothingCommitted();
    }

    @Test
    void aStaleEpochCannotCommitAndLeavesNoRows() throws Exception {
        ChunkClaim stale = claim(0, "lane-a");
        expireChunkLease(runKey(), 0);
        ChunkClaim fresh = claim(0, "lane-b");
        assertThat(fresh.epoch()).isEqualTo(stale.epoch() + 1);

        assertThat(commit(stale, 1200, Duration.ofSeconds(5), false).kind()).isEqualTo(ChunkOutcome.Kind.LEASE_LOST);
        assertNothingCommitted();
        assertThat(commit(fresh, 1200, Duration.ofSeconds(5), false).kind()).isEqualTo(ChunkOutcome.Kind.COMMITTED);
        assertThat(count("SELECT count(*) FROM " + loadTable())).isEqualTo(1200);
    }

    @Test
    void anExistingReceiptIsNeverAppendedAgain() throws Exception {
        commit(claim(3, "lane-a"), 700, Duration.ofSeconds(5), false);
        try (Connection c = targetConnection(); PreparedStatement ps = c.prepareStatement(
                "UPDATE " + STATE_SCHEMA + ".chunk SET state = 'pending' WHERE run_key = ? AND chunk_id = 3")) {
            ps.setString(1, runKey());
            ps.executeUpdate(); // a replay that finds the chunk claimable again, e.g. a ledger row reset by hand
        }
        ChunkOutcome replay = commit(claim(3, "lane-b"), 700, Duration.ofSeconds(5), false);

        assertThat(replay.kind()).isEqualTo(ChunkOutcome.Kind.ALREADY_RECEIPTED);
        assertThat(count("SELECT count(*) FROM " + loadTable())).isEqualTo(700);
    }

    @Test
    void aZombiesUncommittedReceiptMakesTheCommitWaitTheReceiptWaitThenFailWithNothingLoaded() throws Exception {
        ChunkClaim claim = claim(1, "lane-a");
        try (Connection zombie = targetConnection()) {
            zombie.setAutoCommit(false);
            try (PreparedStatement ps = zombie.prepareStatement("INSERT INTO " + STATE_SCHEMA
                    + ".chunk_receipt (run_key, chunk_id, epoch, owner) VALUES (?, 1, 0, 'zombie')")) {
                ps.setString(1, runKey());
                ps.executeUpdate();
            }
            long started = System.nanoTime();
            assertThatThrownBy(() -> commit(claim, 100, Duration.ofMillis(700), false))
                    .satisfies(this::assertReceiptWaitExpired);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(600), Duration.ofSeconds(5));
            zombie.rollback();
        }
        assertNothingCommitted();
    }

    @Test
    void aSourceThatFailsMidStreamLeavesNothing() throws SQLException {
        ChunkClaim claim = claim(2, "lane-a");
        ChunkSource failing = (range, encoding) -> new GeneratedRows(range, 3000, 1500, encoding);
        assertThatThrownBy(() -> new ChunkProtocol(failing, sink(Duration.ofSeconds(5)), FaultPoints.NONE)
                .commit(claim, blueprint.plan().chunk(2), watch(false))).hasMessageContaining("source connection reset");
        assertNothingCommitted();
    }

    private void assertNothingCommitted() throws SQLException {
        assertThat(count("SELECT count(*) FROM " + loadTable())).isZero();
        assertThat(count("SELECT count(*) FROM " + STATE_SCHEMA + ".chunk_receipt")).isZero();
        assertThat(count("SELECT count(*) FROM " + STATE_SCHEMA + ".chunk WHERE state = 'committed'")).isZero();
    }

    private ChunkOutcome commit(ChunkClaim claim, long rows, Duration receiptWait, boolean leaseLost) throws Exception {
        ChunkSource source = (range, encoding) -> new GeneratedRows(range, rows, -1, encoding);
        return new ChunkProtocol(source, sink(receiptWait), FaultPoints.NONE)
                .commit(claim, blueprint.plan().chunk(claim.chunkId()), watch(leaseLost));
    }

    private ChunkClaim claim(int chunkId, String owner) {
        ChunkRecord seen = ledger.chunks(runKey(), chunkId, 1).get(0);
        return ledger.claim(runKey(), seen, owner, CLAIM_TTL).orElseThrow();
    }

    protected String runKey() {
        return blueprint.identity().runKey();
    }

    private long count(String sql) throws SQLException {
        try (Connection c = targetConnection(); PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** A watch that reports the lease lost from the first check on (after 1000 rows), or never. */
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

    /** {@code rows} generated rows of one chunk, ids unique across chunks; fails at row {@code failAt} when >= 0. */
    private static final class GeneratedRows implements ChunkRows {
        private final long base;
        private final long rows;
        private final long failAt;
        private final RowEncoding encoding;
        private final ContentDigester digester = new ContentDigester(2, new int[]{0});
        private long read;

        GeneratedRows(ChunkRange range, long rows, long failAt, RowEncoding encoding) {
            this.base = range.id() * 1_000_000L;
            this.rows = rows;
            this.failAt = failAt;
            this.encoding = encoding;
        }

        @Override
        public boolean next() {
            if (read == failAt) {
                throw new IllegalStateException("source connection reset");
            }
            if (read == rows) {
                return false;
            }
            read++;
            digester.value(base + read);
            digester.value("code-" + read);
            digester.endRow();
            return true;
        }

        /** The digest a real source computes as the rows stream: here of the values the rows carry. */
        @Override
        public ChunkDigest digest() {
            return digester.digest();
        }

        /** The row as COPY text, or as a binary COPY tuple (bigint, text) when the sink takes binary. */
        @Override
        public byte[] copyBytes() {
            if (encoding != RowEncoding.POSTGRES_COPY_BINARY) {
                return ((base + read) + "\tcode-" + read + "\n").getBytes(StandardCharsets.UTF_8);
            }
            byte[] code = ("code-" + read).getBytes(StandardCharsets.UTF_8);
            return java.nio.ByteBuffer.allocate(2 + 4 + 8 + 4 + code.length).putShort((short) 2).putInt(8).putLong(base + read)
                    .putInt(code.length).put(code).array();
        }

        @Override
        public Object[] values() {
            return new Object[]{base + read, "code-" + read};
        }

        @Override
        public void close() {
        }
    }
}
