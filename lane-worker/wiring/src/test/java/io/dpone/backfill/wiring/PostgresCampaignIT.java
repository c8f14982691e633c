package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.engine.PhaseDetail;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.lane.LaneExit;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.CampaignRecord;
import io.dpone.backfill.core.ledger.LedgerConflictException;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.naming.CarriedObjectNames;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.publish.LiveTargetBaseline;
import io.dpone.backfill.core.publish.TableFingerprint;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.core.publish.ValidationResult;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The campaign engine end to end on real PostgreSQL (source and target databases), lanes as threads with their own
 * connections. Crash windows with real process death are proven by the CLI suites in e2e.
 */
class PostgresCampaignIT {
    private static final String UUID_CHUNKS = "{column: id, kind: uuid, buckets: 16}";
    private static final String SHADOW = "  publication: {mode: shadow_swap}\n";
    private static final String ITEMS = "CREATE TABLE public.items (id uuid NOT NULL PRIMARY KEY, code text, qty integer NOT NULL DEFAULT 0, note text)";
    private static final String ITEMS_NO_PK = "CREATE TABLE public.items (id uuid NOT NULL, code text, qty integer NOT NULL DEFAULT 0, note text)";

    private CampaignHarness h;

    @BeforeEach
    void setUp() {
        h = new CampaignHarness();
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    private void sourceRows(int rows) throws Exception {
        h.source.execute("INSERT INTO public.items SELECT gen_random_uuid(), 'c' || i, i, 'n ✓ ' || i FROM generate_series(1, " + rows + ") i");
    }

    private CampaignLease lease(CampaignRuntime s, CampaignBlueprint b) {
        return CampaignHarness.openAndLease(s, b);
    }

    @Test
    void shadowSwapPublishesExactlyTheSourceKeysAndCommitsTheHandoff() throws Exception {
        h.source.execute(ITEMS);
        sourceRows(20_000);
        h.target.execute(ITEMS, "INSERT INTO public.items VALUES ('00000000-0000-0000-0000-000000000001', 'old', 1, 'old table')");
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_v1", UUID_CHUNKS, SHADOW));
        try (CampaignRuntime s = h.session(b)) {
            StepResult r = h.runToSettled(b, s, lease(s, b));
            assertThat(r.phase()).as(h.laneLog.toString()).isEqualTo(CampaignPhase.HandoffCommitted);
            assertThat(ItemsTable.keys(h.target)).isEqualTo(ItemsTable.keys(h.source));
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items__bf_backup")).isEqualTo(1);
            assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt")).isEqualTo(16);
            assertThat(h.target.queryForLong("SELECT sum(rows_loaded) FROM backfill_state.chunk_receipt")).isEqualTo(20_000);
            assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.publication_receipt")).isEqualTo(1);
            assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.handoff_receipt")).isEqualTo(1);
            CampaignRecord c = s.ledger().findByRunKey(b.identity().runKey()).orElseThrow();
            assertThat(c.anchorXmin()).isNotBlank();
            ValidationResult v = PhaseDetail.parse(c.detail()).validation();
            // The deferred primary key is built before validation, so it, not a GROUP BY, rules duplicates out.
            assertThat(v).isEqualTo(new ValidationResult(20_000, 20_000, 0, 0,
                    CarriedObjectNames.onShadow(new ArtifactNames("public", "items__bf_shadow", "items__bf_backup"), "items_pkey")));
            // The values travelled too, not just the keys.
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items WHERE note LIKE 'n ✓ %' AND qty > 0")).isEqualTo(20_000);
        }
    }

    @Test
    void directModeAppendsToTheLiveTableExactlyOnce() throws Exception {
        h.source.execute("CREATE TABLE public.items (id bigint NOT NULL PRIMARY KEY, code text, qty integer NOT NULL DEFAULT 0, note text)",
                "INSERT INTO public.items SELECT i, 'c' || i, i, 'n' FROM generate_series(1, 5000) i");
        h.target.execute("CREATE TABLE public.items (id bigint NOT NULL PRIMARY KEY, code text, qty integer NOT NULL DEFAULT 0, note text)",
                "INSERT INTO public.items VALUES (-7, 'existing', 1, 'kept')");
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_direct",
                "{column: id, kind: integer, buckets: 10, lowerBound: 1, upperBound: 4000}", ""));
        try (CampaignRuntime s = h.session(b)) {
            StepResult r = h.runToSettled(b, s, lease(s, b));
            assertThat(r.phase()).isEqualTo(CampaignPhase.HandoffCommitted);
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).isEqualTo(5001);
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items WHERE id > 4000")).as("keys above the planned bound").isEqualTo(1000);
            assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.publication_receipt")).isZero();
        }
    }

    @Test
    void validationBlocksOnADuplicateKeyAndLeavesTheLiveTableUntouched() throws Exception {
        h.source.execute(ITEMS_NO_PK);
        sourceRows(3000);
        h.source.execute("INSERT INTO public.items SELECT id, 'dup', 1, 'dup' FROM public.items LIMIT 1");
        h.target.execute(ITEMS, "INSERT INTO public.items VALUES ('00000000-0000-0000-0000-000000000001', 'old', 1, 'old table')");
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_dup", UUID_CHUNKS, SHADOW));
        try (CampaignRuntime s = h.session(b)) {
            StepResult r = h.runToSettled(b, s, lease(s, b));
            assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
            assertThat(r.message()).contains("1 duplicate keys")
                    .as("the primary key's build on the shadow is what met them first").contains("building the shadow's indexes failed on them");
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).as("live table untouched").isEqualTo(1);
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items__bf_shadow")).as("shadow kept for diagnosis").isEqualTo(3001);
            assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.publication_receipt")).isZero();
        }
    }

    @Test
    void validationBlocksOnANullKey() throws Exception {
        h.source.execute(ITEMS);
        sourceRows(2000);
        h.source.execute("UPDATE public.items SET code = NULL WHERE qty = 7");
        h.target.execute(ITEMS);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_null", UUID_CHUNKS, SHADOW)
                .uniqueKey("code"));
        try (CampaignRuntime s = h.session(b)) {
            assertThatThrownBy(() -> s.engine().open(s.preflight(b, null))).as("pre-flight is the first line")
                    .isInstanceOf(PreflightRefusedException.class).hasMessageContaining("source.unique-key.nullable");
            // Validation is the last line: with pre-flight skipped by an expert it still blocks.
            s.engine().open(s.preflight(b, "test: validation alone"));
            CampaignLease lease = s.ledger().acquireLease(b.identity().runKey(), "driver-null", CampaignHarness.FAST.leaseTtl()).orElseThrow();
            StepResult r = h.runToSettled(b, s, lease);
            assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
            assertThat(r.message()).contains("1 NULL keys");
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).isZero();
        }
    }

    @Test
    void anEmptySourcePublishesAnEmptyTarget() throws Exception {
        h.source.execute(ITEMS);
        h.target.execute(ITEMS, "INSERT INTO public.items VALUES ('00000000-0000-0000-0000-000000000001', 'old', 1, 'old table')");
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_empty", UUID_CHUNKS, SHADOW));
        try (CampaignRuntime s = h.session(b)) {
            StepResult r = h.runToSettled(b, s, lease(s, b));
            assertThat(r.phase()).isEqualTo(CampaignPhase.HandoffCommitted);
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).isZero();
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items__bf_backup")).isEqualTo(1);
        }
    }

    @Test
    void aColumnAddedToTheSourceMidCampaignBlocksBeforeTheNextChunk() throws Exception {
        h.source.execute(ITEMS);
        sourceRows(2000);
        h.target.execute(ITEMS);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_drift", UUID_CHUNKS, SHADOW));
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = lease(s, b);
            CampaignHarness.stepUntil(s, lease, CampaignPhase.Loading);
            h.source.execute("ALTER TABLE public.items ADD COLUMN extra text");
            h.startLanes(b, 2);
            assertThat(h.awaitLanes()).containsOnly(LaneExit.DRIFT);
            assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'committed'")).isZero();
            StepResult r = s.engine().step(lease);
            assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
            assertThat(r.message()).contains("changed shape");
        }
    }

    @Test
    void aColumnAddedToTheShadowMidCampaignBlocks() throws Exception {
        h.source.execute(ITEMS);
        sourceRows(500);
        h.target.execute(ITEMS);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_drift2", UUID_CHUNKS, SHADOW));
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = lease(s, b);
            CampaignHarness.stepUntil(s, lease, CampaignPhase.Loading);
            h.target.execute("ALTER TABLE public.items__bf_shadow ADD COLUMN extra text");
            StepResult r = s.engine().step(lease);
            assertThat(r.phase()).isEqualTo(CampaignPhase.Blocked);
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).isZero();
        }
    }

    @Test
    void suspendStopsNewClaims() throws Exception {
        h.source.execute(ITEMS);
        sourceRows(1000);
        h.target.execute(ITEMS);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_suspend", UUID_CHUNKS, SHADOW + "  suspend: true\n"));
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = lease(s, b);
            StepResult r = CampaignHarness.stepUntil(s, lease, CampaignPhase.Suspended);
            assertThat(r.stopsLanes()).isTrue();
            h.startLanes(b, 2);
            assertThat(h.awaitLanes()).containsOnly(LaneExit.STOP_REQUESTED);
            assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE attempts > 0")).isZero();
            s.ledger().releaseLease(lease);
        }
        // The same campaign without suspend resumes loading to the end (suspend is not part of the identity).
        CampaignBlueprint resumed = CampaignHarness.blueprint(CampaignHarness.campaign("items_suspend", UUID_CHUNKS, SHADOW));
        assertThat(resumed.identity()).isEqualTo(b.identity());
        try (CampaignRuntime s = h.session(resumed)) {
            assertThat(h.runToSettled(resumed, s, lease(s, resumed)).phase()).isEqualTo(CampaignPhase.HandoffCommitted);
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).isEqualTo(1000);
        }
    }

    @Test
    void failedChunksTurnRecoverableAndResumeFinishesWithoutReloadingCommittedChunks() throws Exception {
        h.source.execute(ITEMS);
        sourceRows(4000);
        h.source.execute("UPDATE public.items SET note = 'boom' WHERE qty = 1234");
        h.target.execute(ITEMS);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_recover", UUID_CHUNKS, SHADOW));
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = lease(s, b);
            CampaignHarness.stepUntil(s, lease, CampaignPhase.Loading);
            // A trigger does not change the table's shape, so it fails one chunk without looking like drift.
            h.target.execute("CREATE FUNCTION public.boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                            + " IF NEW.note = 'boom' THEN RAISE EXCEPTION 'refusing boom row'; END IF; RETURN NEW; END $$",
                    "CREATE TRIGGER boom BEFORE INSERT ON public.items__bf_shadow FOR EACH ROW EXECUTE FUNCTION public.boom()");
            // Lanes alone run until only the exhausted chunk is left, so the count below does not race the engine.
            h.startLanes(b, 3);
            h.awaitLanes();
            StepResult r = h.runToSettled(b, s, lease);
            assertThat(r.phase()).isEqualTo(CampaignPhase.Recoverable);
            assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'failed' AND last_error LIKE '%refusing boom row%'")).isEqualTo(1);
            long committedBefore = h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk_receipt");
            assertThat(committedBefore).isEqualTo(15);

            h.target.execute("DROP TRIGGER boom ON public.items__bf_shadow");
            assertThat(s.engine().resume(lease)).isEqualTo(1);
            assertThat(h.runToSettled(b, s, lease).phase()).isEqualTo(CampaignPhase.HandoffCommitted);
            assertThat(ItemsTable.keys(h.target)).isEqualTo(ItemsTable.keys(h.source));
            assertThat(h.target.queryForLong("SELECT max(epoch) FROM backfill_state.chunk_receipt")).as("committed chunks were claimed once").isLessThanOrEqualTo(3);
        }
    }

    /**
     * Issue 35: a row the target refuses (a CHECK constraint, SQLSTATE 23514) fails the same way on every attempt, so
     * its chunk is refused after one attempt and the campaign turns Recoverable naming the chunk and the row, while
     * the trigger's RAISE above (P0001, not a refusal PostgreSQL names) still spends every attempt.
     */
    @Test
    void aRowTheTargetRefusesStopsTheCampaignAfterOneAttemptNamingTheValue() throws Exception {
        h.source.execute(ITEMS);
        sourceRows(4000);
        h.source.execute("UPDATE public.items SET note = 'refused-value-1234' WHERE qty = 1234");
        h.target.execute(ITEMS);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_refused", UUID_CHUNKS, SHADOW));
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = lease(s, b);
            CampaignHarness.stepUntil(s, lease, CampaignPhase.Loading);
            h.target.execute("ALTER TABLE public.items__bf_shadow ADD CONSTRAINT no_refused"
                    + " CHECK (note IS DISTINCT FROM 'refused-value-1234') NOT VALID");
            h.startLanes(b, 3);
            h.awaitLanes();
            StepResult r = h.runToSettled(b, s, lease);

            assertThat(r.phase()).isEqualTo(CampaignPhase.Recoverable);
            assertThat(r.message()).containsPattern("chunk \\d+ was refused by the target on attempt 1")
                    .contains("no_refused").contains("refused-value-1234");
            assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk WHERE state = 'failed'"
                    + " AND refused AND attempts = 1 AND last_error LIKE '%refused-value-1234%'")).isEqualTo(1);
            assertThat(h.target.queryForLong("SELECT max(attempts) FROM backfill_state.chunk"))
                    .as("no chunk was attempted twice").isEqualTo(1);

            h.target.execute("ALTER TABLE public.items__bf_shadow DROP CONSTRAINT no_refused");
            assertThat(s.engine().resume(lease)).isEqualTo(1);
            assertThat(h.runToSettled(b, s, lease).phase()).isEqualTo(CampaignPhase.HandoffCommitted);
            assertThat(ItemsTable.keys(h.target)).isEqualTo(ItemsTable.keys(h.source));
        }
    }

    @Test
    void twoDriversRacingGetOneOwnerPerEpochAndOnePublication() throws Exception {
        h.source.execute(ITEMS);
        sourceRows(1000);
        h.target.execute(ITEMS);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_race", UUID_CHUNKS, SHADOW));
        try (CampaignRuntime first = h.session(b); CampaignRuntime second = h.session(b)) {
            first.engine().open(first.preflight(b, null));
            second.engine().open(second.preflight(b, null));
            Duration ttl = Duration.ofSeconds(1);
            Optional<CampaignLease> a = first.ledger().acquireLease(b.identity().runKey(), "driver-a", ttl);
            Optional<CampaignLease> other = second.ledger().acquireLease(b.identity().runKey(), "driver-b", ttl);
            assertThat(a).isPresent();
            assertThat(other).as("one owner while the lease is live").isEmpty();
            first.engine().step(a.get());
            Thread.sleep(1500);
            CampaignLease bLease = second.ledger().acquireLease(b.identity().runKey(), "driver-b", CampaignHarness.FAST.leaseTtl()).orElseThrow();
            assertThat(bLease.epoch()).isEqualTo(a.get().epoch() + 1);
            assertThatThrownBy(() -> first.engine().step(a.get())).as("the deposed driver is fenced").isInstanceOf(LeaseLostException.class);
            assertThatThrownBy(() -> first.publisher().publish(a.get(), b.artifacts(), "items", 0,
                    new LiveTargetBaseline(new TableShape(java.util.List.of()), "0:0"), new TableFingerprint(0, "0")))
                    .as("a deposed driver cannot publish").isInstanceOf(LeaseLostException.class);
            assertThat(h.runToSettled(b, second, bLease).phase()).isEqualTo(CampaignPhase.HandoffCommitted);
            assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.publication_receipt")).isEqualTo(1);
            assertThat(ItemsTable.keys(h.target)).isEqualTo(ItemsTable.keys(h.source));
        }
    }

    @Test
    void aChangedPlanForTheSameBackfillIdIsRefused() throws Exception {
        h.source.execute(ITEMS);
        h.target.execute(ITEMS);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_same", UUID_CHUNKS, SHADOW));
        CampaignBlueprint changed = CampaignHarness.blueprint(CampaignHarness.campaign("items_same", "{column: id, kind: uuid, buckets: 17}", SHADOW));
        try (CampaignRuntime s = h.session(b)) {
            s.engine().open(s.preflight(b, null));
        }
        try (CampaignRuntime s = h.session(changed)) {
            assertThatThrownBy(() -> s.engine().open(s.preflight(changed, null))).isInstanceOf(LedgerConflictException.class).hasMessageContaining("items_same");
        }
        assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.campaign")).isEqualTo(1);
        assertThat(h.target.queryForLong("SELECT count(*) FROM backfill_state.chunk")).isEqualTo(16);
    }
}
