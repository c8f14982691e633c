package io.dpone.backfill.core.driver;

import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.doctor.PreflightRefusedException;
import io.dpone.backfill.core.doctor.PreflightResult;
import io.dpone.backfill.core.engine.CampaignEngine;
import io.dpone.backfill.core.engine.FakeTarget;
import io.dpone.backfill.core.engine.LeaseLostException;
import io.dpone.backfill.core.engine.NextAction;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignClaim;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.ledger.ChunkClaim;
import io.dpone.backfill.core.ledger.ChunkRecord;
import io.dpone.backfill.core.ledger.InMemoryLedger;
import io.dpone.backfill.core.ledger.LedgerStore;
import io.dpone.backfill.core.ledger.ThrottleSetting;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.testsupport.postgres.CampaignYaml;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The driver protocol over hand-written fakes of its ports and the in-memory ledger, through both ways a pass ends:
 * the CLI's (until settled) and the operator's (one round). The engine is the real one over fake tables.
 */
class DriverLoopTest {
    private static final Duration TTL = Duration.ofSeconds(30);
    private static final Clock NOON = Clock.fixed(Instant.parse("2026-12-04T12:00:00Z"), ZoneOffset.UTC);

    private InMemoryLedger memory;
    private LedgerStore ledger;
    private FakeTarget target;
    private final FakeFleet fleet = new FakeFleet(1);
    private final FakeStatus status = new FakeStatus();
    private final CampaignOpener opener = new CampaignOpener(status);

    @BeforeEach
    void setUp() {
        memory = new InMemoryLedger();
        ledger = memory.connect();
        target = new FakeTarget(memory);
    }

    private static CampaignBlueprint blueprint(String extra) {
        return CampaignBlueprint.of(CampaignReader.parse(CampaignYaml.campaign("t_v1").name("t").secrets("src", "tgt")
                .table("t").chunk("{column: id, kind: integer, buckets: 4, lowerBound: 0, upperBound: 400}")
                .parallelWorkers(2).maxChunkAttempts(2).shadowSwap().extraSpec(extra).render()));
    }

    private FakeSession session(CampaignBlueprint blueprint) {
        return new FakeSession(new CampaignEngine(blueprint, ledger, target.publisher(), target.source()), ledger, "driver-a");
    }

    private DriverLoop loop(CampaignBlueprint blueprint, Healing healing, PassEnd passEnd) {
        return new DriverLoop(blueprint.definition().spec(), fleet, status, healing, passEnd, NOON);
    }

    /** The CLI's pass, with what lanes do between its rounds; a drive that never settles fails the test. */
    private static UntilSettled untilSettled(Runnable betweenRounds) {
        int[] rounds = {0};
        return new UntilSettled(max -> {
            if (++rounds[0] > 20) {
                throw new AssertionError("the campaign did not settle in 20 rounds");
            }
            betweenRounds.run();
        });
    }

    /** Opens and claims as every host does first. */
    private HeldCampaign openAndClaim(FakeSession session) throws InterruptedException {
        assertThat(opener.open(session)).isEmpty();
        return new HeldCampaign(session, ((CampaignClaim.Taken) opener.claim(session, Duration.ZERO)).lease());
    }

    /** What lanes do between two rounds of the CLI: commit every chunk they can claim. */
    private void lanesCommitEverything(String runKey) {
        for (ChunkRecord seen : ledger.claimable(runKey, 2, false, 100)) {
            ChunkClaim claim = ledger.claim(runKey, seen, "lane", TTL).orElseThrow();
            memory.writeChunkReceipt(runKey, claim.chunkId(), 100);
            assertThat(ledger.commitFromReceipt(claim)).isTrue();
            target.shadowRows += 100;
        }
    }

    private CampaignPhase phase(String runKey) {
        return ledger.findByRunKey(runKey).orElseThrow().phase();
    }

    @Test
    void aRefusedPreflightReturnsTheVerdictAndCreatesNothing() {
        CampaignBlueprint b = blueprint("");
        FakeSession session = session(b);
        session.preflight = FakeSession.refusing();

        Optional<PreflightResult> refused = opener.open(session);

        assertThat(refused).hasValueSatisfying(r -> assertThat(r.refuses()).isTrue());
        assertThat(ledger.peek(b.identity().runKey())).isEmpty();
        assertThat(fleet.calls).isEmpty();
    }

    @Test
    void aSkippedPreflightIsSaidAndTheCampaignOpens() {
        CampaignBlueprint b = blueprint("");
        FakeSession session = session(b);
        session.preflight = io.dpone.backfill.core.doctor.Preflight.skipped("--skip-preflight");

        assertThat(opener.open(session)).isEmpty();

        assertThat(status.said).containsExactly("pre-flight skipped: --skip-preflight");
        assertThat(ledger.peek(b.identity().runKey())).isPresent();
    }

    @Test
    void theCliPassStepsUntilTheCampaignIsHandedOffAndFinishesItsLanes() throws Exception {
        CampaignBlueprint b = blueprint("");
        String runKey = b.identity().runKey();
        DriverLoop loop = loop(b, Healing.NEXT_PASS, untilSettled(() -> lanesCommitEverything(runKey)));

        StepResult last = loop.drive(openAndClaim(session(b)), PendingActions.NONE);

        assertThat(last.phase()).isEqualTo(CampaignPhase.HandoffCommitted);
        // Every step is told, the one that committed the handoff and the one that found the campaign settled.
        assertThat(status.phases()).containsExactly(CampaignPhase.Prepared, CampaignPhase.Loading, CampaignPhase.Loading,
                CampaignPhase.Validating, CampaignPhase.Publishing, CampaignPhase.Published, CampaignPhase.HandoffCommitted,
                CampaignPhase.HandoffCommitted);
        assertThat(fleet.calls).containsExactly("keep 2", "keep 2", "finish");
    }

    @Test
    void theOperatorPassEndsAfterOneRoundOnTheStepThatAskedForLanes() throws Exception {
        CampaignBlueprint b = blueprint("");
        DriverLoop loop = loop(b, Healing.NEXT_PASS, PassEnd.ONE_ROUND);

        StepResult last = loop.drive(openAndClaim(session(b)), PendingActions.NONE);

        assertThat(last.wantsLanes()).isTrue();
        assertThat(status.phases()).containsExactly(CampaignPhase.Prepared, CampaignPhase.Loading, CampaignPhase.Loading);
        assertThat(fleet.running()).isEqualTo(2);
    }

    @Test
    void lanesStartWhileTheCampaignIsStillToBePreparedBeforeItsFirstStep() throws Exception {
        CampaignBlueprint b = blueprint("");
        DriverLoop loop = loop(b, Healing.NEXT_PASS, PassEnd.ONE_ROUND);

        loop.drive(openAndClaim(session(b)), PendingActions.NONE);

        assertThat(status.said.get(0)).isEqualTo("2 lanes started early while Planned");
        assertThat(status.said.get(1)).isEqualTo("step Prepared");
    }

    @Test
    void aSuspendedCampaignStartsNoLanesEarly() throws Exception {
        CampaignBlueprint b = blueprint("  suspend: true\n");
        DriverLoop loop = loop(b, Healing.NEXT_PASS, PassEnd.ONE_ROUND);

        StepResult last = loop.drive(openAndClaim(session(b)), PendingActions.NONE);

        assertThat(last.phase()).isEqualTo(CampaignPhase.Suspended);
        assertThat(fleet.calls).containsExactly("drain");
    }

    @Test
    void aSpentFailureBudgetMakesTheCampaignRecoverableAndDrainsItsLanes() throws Exception {
        CampaignBlueprint b = blueprint("");
        String runKey = b.identity().runKey();
        // Every lane crashes between rounds: two failures spend a budget of one.
        DriverLoop loop = loop(b, Healing.NEXT_PASS, untilSettled(fleet::lanesFail));

        StepResult last = loop.drive(openAndClaim(session(b)), PendingActions.NONE);

        assertThat(last.phase()).isEqualTo(CampaignPhase.Recoverable);
        assertThat(last.next()).isEqualTo(new NextAction.FixThenResume("lanes failed 2 times (budget 1)"));
        assertThat(phase(runKey)).isEqualTo(CampaignPhase.Recoverable);
        // The loading step that asked for lanes is told before the one that gave up on them.
        assertThat(status.phases()).endsWith(CampaignPhase.Loading, CampaignPhase.Recoverable);
        assertThat(fleet.calls).endsWith("keep 2", "drain");
    }

    @Test
    void theLaneCountInForceIsWhatTheLedgerHoldsNow() throws Exception {
        CampaignBlueprint b = blueprint("");
        String runKey = b.identity().runKey();
        List<Integer> rounds = new ArrayList<>();
        // `backfill throttle --lanes 1` while the campaign loads: the next round keeps one lane.
        DriverLoop loop = loop(b, Healing.NEXT_PASS, untilSettled(() -> {
            rounds.add(rounds.size());
            if (rounds.size() == 1) {
                ledger.recordThrottle(runKey, ThrottleSetting.of(null, 1));
            } else {
                lanesCommitEverything(runKey);
            }
        }));

        loop.drive(openAndClaim(session(b)), PendingActions.NONE);

        assertThat(fleet.calls).startsWith("keep 2", "keep 2", "keep 1");
    }

    @Test
    void aThrottleTheSpecChangedIsRecordedAndSaidOnlyWhenItChanges() throws Exception {
        CampaignBlueprint b = blueprint("  throttle: {rowsPerSecond: 50}\n");
        DriverLoop loop = loop(b, Healing.NEXT_PASS, PassEnd.ONE_ROUND);
        FakeSession session = session(b);
        HeldCampaign held = openAndClaim(session);

        loop.drive(held, PendingActions.NONE);
        loop.drive(held, PendingActions.NONE);

        assertThat(status.said.stream().filter(s -> s.startsWith("throttle "))).hasSize(1);
        assertThat(ledger.throttle(b.identity().runKey()).rowsPerSecond()).isEqualTo(50);
    }

    @Test
    void claimsPauseOutsideTheLoadWindowsOnceTheCampaignLoads() throws Exception {
        CampaignBlueprint b = blueprint("  throttle: {windows: [{from: '22:00', to: '06:00', timeZone: UTC}]}\n");
        DriverLoop loop = loop(b, Healing.NEXT_PASS, PassEnd.ONE_ROUND);

        loop.drive(openAndClaim(session(b)), PendingActions.NONE);

        assertThat(status.said).containsSubsequence("step Loading", "claims paused: OutsideLoadWindow", "step Loading");
        assertThat(ledger.claimPause(b.identity().runKey())).isPresent();
    }

    @Test
    void whatAPersonAskedIsCarriedOutUnderTheLeaseBeforeAnyStep() throws Exception {
        CampaignBlueprint b = blueprint("");
        DriverLoop loop = loop(b, Healing.NEXT_PASS, PassEnd.ONE_ROUND);
        HeldCampaign held = openAndClaim(session(b));
        List<String> seen = new ArrayList<>();

        loop.drive(held, (engine, lease) -> seen.add(lease.equals(held.lease()) + " " + status.steps.size()));

        assertThat(seen).containsExactly("true 0");
    }

    @Test
    void aLostLeaseStopsTheDriveBeforeAnotherStep() throws InterruptedException {
        CampaignBlueprint b = blueprint("");
        DriverLoop loop = loop(b, Healing.NEXT_PASS, PassEnd.ONE_ROUND);
        FakeSession session = session(b);
        HeldCampaign held = openAndClaim(session);
        session.leaseLost = true;

        assertThatThrownBy(() -> loop.drive(held, PendingActions.NONE)).isInstanceOf(LeaseLostException.class);
        assertThat(phase(b.identity().runKey())).isEqualTo(CampaignPhase.Planned);
    }

    @Test
    void aFailedRoundIsHealedAndSteppingGoesOnWithTheHealedSessionAndLease() throws Exception {
        CampaignBlueprint b = blueprint("");
        String runKey = b.identity().runKey();
        FakeSession first = session(b);
        FakeSession second = session(b);
        List<String> healing = new ArrayList<>();
        Healing reconnect = new Healing() {
            @Override
            public HeldCampaign heal(HeldCampaign failed, RuntimeException failure) {
                healing.add("heal: " + failure.getMessage());
                // A new session opens the campaign again (its engine has not seen pre-flight) and claims it.
                try {
                    return opener.reopen(second, Duration.ZERO);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }

            @Override
            public void healed() {
                healing.add("healed");
            }
        };
        DriverLoop loop = loop(b, reconnect, untilSettled(() -> lanesCommitEverything(runKey)));
        HeldCampaign held = openAndClaim(first);
        first.leaseLost = false;
        FailingOnce failing = new FailingOnce(first);

        StepResult last = loop.drive(new HeldCampaign(failing, held.lease()), PendingActions.NONE);

        assertThat(last.phase()).isEqualTo(CampaignPhase.HandoffCommitted);
        assertThat(healing.get(0)).isEqualTo("heal: connection reset");
        assertThat(healing).contains("healed");
        assertThat(second.claims).isEqualTo(1);
    }

    @Test
    void theOperatorsHealingEndsThePassWithTheFailure() throws InterruptedException {
        CampaignBlueprint b = blueprint("");
        DriverLoop loop = loop(b, Healing.NEXT_PASS, PassEnd.ONE_ROUND);
        HeldCampaign held = openAndClaim(session(b));

        assertThatThrownBy(() -> loop.drive(new HeldCampaign(new FailingOnce(held.session()), held.lease()), PendingActions.NONE))
                .hasMessage("connection reset");
    }

    @Test
    void aClaimOfACampaignAnotherLiveSessionHoldsReturnsTheHolderWithoutWaitingWhenTheBoundIsZero() throws Exception {
        CampaignBlueprint b = blueprint("");
        openAndClaim(session(b));
        FakeSession other = new FakeSession(new CampaignEngine(b, memory.connect(), target.publisher(), target.source()),
                memory.connect(), "driver-b");

        CampaignClaim claim = opener.claim(other, Duration.ZERO);

        assertThat(claim).isInstanceOfSatisfying(CampaignClaim.Held.class, h -> assertThat(h.owner()).isEqualTo("driver-a"));
        assertThat(other.claims).isEqualTo(1);
        assertThat(status.said).isEmpty();
    }

    @Test
    void aClaimWaitsForALiveDriverSayingWhoHoldsItAndTakesTheCampaignOverOnceItsSessionEnds() throws Exception {
        CampaignBlueprint b = blueprint("");
        openAndClaim(session(b));
        LedgerStore otherStore = memory.connect();
        FakeSession other = new FakeSession(new CampaignEngine(b, otherStore, target.publisher(), target.source()),
                otherStore, "driver-b") {
            @Override
            public CampaignClaim claim() {
                if (claims == 1) {
                    memory.endSession((InMemoryLedger.Store) DriverLoopTest.this.ledger); // the first driver's process dies
                }
                return super.claim();
            }
        };

        CampaignClaim claim = opener.claim(other, Duration.ofSeconds(10));

        assertThat(claim).isInstanceOf(CampaignClaim.Taken.class);
        assertThat(status.said).containsExactly("waiting for driver-a", "took over from driver-a with epoch 2");
    }

    @Test
    void aSessionOpenedAgainAfterAReconnectGetsTheCampaignBackUnderANewEpoch() throws Exception {
        CampaignBlueprint b = blueprint("");
        HeldCampaign first = openAndClaim(session(b));
        LedgerStore fresh = memory.connect();
        memory.endSession((InMemoryLedger.Store) ledger); // the lost connection's session is ended first

        HeldCampaign again = opener.reopen(new FakeSession(new CampaignEngine(b, fresh, target.publisher(), target.source()),
                fresh, "driver-a"), Duration.ZERO);

        assertThat(again.lease().epoch()).isGreaterThan(first.lease().epoch());
    }

    @Test
    void aSessionOpenedAgainStopsWhenAnotherDriverHoldsTheCampaignNow() throws Exception {
        CampaignBlueprint b = blueprint("");
        openAndClaim(session(b));
        LedgerStore fresh = memory.connect();

        assertThatThrownBy(() -> opener.reopen(new FakeSession(new CampaignEngine(b, fresh, target.publisher(), target.source()),
                fresh, "driver-b"), Duration.ZERO))
                .isInstanceOf(LeaseLostException.class).hasMessageContaining("held by driver-a");
    }

    @Test
    void aSessionOpenedAgainStopsWhenPreflightNowRefusesTheCampaignStillToBePrepared() {
        CampaignBlueprint b = blueprint("");
        FakeSession fresh = session(b);
        fresh.preflight = FakeSession.refusing();

        assertThatThrownBy(() -> opener.reopen(fresh, Duration.ZERO)).isInstanceOf(PreflightRefusedException.class);
        assertThat(ledger.peek(b.identity().runKey())).isEmpty();
    }

    /** A session whose first step finds its connection reset; every later one is the real session's. */
    private static final class FailingOnce implements DriverSession {
        private final DriverSession session;
        private boolean failed;

        FailingOnce(DriverSession session) {
            this.session = session;
        }

        @Override
        public CampaignEngine engine() {
            return session.engine();
        }

        @Override
        public LedgerStore ledger() {
            return session.ledger();
        }

        @Override
        public io.dpone.backfill.core.doctor.Preflight preflight() {
            return session.preflight();
        }

        @Override
        public io.dpone.backfill.core.source.SourceLoadProbe sourceLoad() {
            return session.sourceLoad();
        }

        @Override
        public CampaignClaim claim() {
            return session.claim();
        }

        @Override
        public boolean leaseLost() {
            if (!failed) {
                failed = true;
                throw new IllegalStateException("connection reset");
            }
            return session.leaseLost();
        }
    }
}
