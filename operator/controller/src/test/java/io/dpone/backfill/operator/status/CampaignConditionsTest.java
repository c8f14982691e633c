package io.dpone.backfill.operator.status;

import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.BlockReason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The kstatus reading of every phase: what kubectl wait, Flux and Argo CD conclude from the conditions. */
class CampaignConditionsTest {
    private static CampaignCondition get(List<CampaignCondition> c, String type) {
        return ConditionSet.find(c, type).orElseThrow(() -> new AssertionError("no " + type + " in " + c));
    }

    @Test
    void readyIsTrueOnlyOnceHandedOff() {
        for (CampaignPhase phase : CampaignPhase.values()) {
            var c = CampaignConditions.forPhase(phase, null, "m", null, null);
            assertThat(get(c, CampaignConditions.READY).getStatus()).as(phase.name())
                    .isEqualTo(phase == CampaignPhase.HandoffCommitted ? "True" : "False");
            assertThat(get(c, CampaignConditions.READY).getReason()).as(phase.name()).isNotBlank();
        }
    }

    @ParameterizedTest
    @EnumSource(value = CampaignPhase.class, names = {"Planned", "Prepared", "Loading", "Validating", "Publishing", "Published"})
    void healthyWorkInFlightIsNeitherReconcilingNorStalledSoKstatusReadsItAsCurrent(CampaignPhase phase) {
        // kubernetes-sigs/cli-utils pkg/kstatus/status/generic.go: Reconciling=True is InProgress; a load of hours
        // would make Flux's wait: true (and kubectl wait) time out on a healthy campaign (ADR 0030).
        var c = CampaignConditions.forPhase(phase, null, "m", null, null);
        assertThat(get(c, CampaignConditions.RECONCILING).getStatus()).isEqualTo("False");
        assertThat(get(c, CampaignConditions.RECONCILING).getReason()).isEqualTo(phase.name());
        assertThat(get(c, CampaignConditions.STALLED).getStatus()).isEqualTo("False");
    }

    @Test
    void blockedRecoverableAndInvalidAreStalledWithAReasonAPersonCanActOn() {
        var blocked = CampaignConditions.forPhase(CampaignPhase.Blocked, BlockReason.VALIDATION_FAILED, "validation failed: 1 duplicate keys", null, null);
        assertThat(get(blocked, CampaignConditions.STALLED)).extracting(CampaignCondition::getStatus, CampaignCondition::getReason,
                CampaignCondition::getMessage).containsExactly("True", "ValidationFailed", "validation failed: 1 duplicate keys");
        var recoverable = CampaignConditions.forPhase(CampaignPhase.Recoverable, null, "2 chunks failed", null, null);
        assertThat(get(recoverable, CampaignConditions.STALLED)).extracting(CampaignCondition::getStatus, CampaignCondition::getReason)
                .containsExactly("True", "Recoverable");
        assertThat(get(recoverable, CampaignConditions.DEGRADED).getStatus()).isEqualTo("True");
        var invalid = CampaignConditions.refused(CampaignConditions.INVALID, "spec.chunk.buckets: must be between 1 and 16384");
        assertThat(get(invalid, CampaignConditions.STALLED)).extracting(CampaignCondition::getStatus, CampaignCondition::getReason)
                .containsExactly("True", "Invalid");
        for (var c : List.of(blocked, recoverable, invalid)) {
            assertThat(get(c, CampaignConditions.RECONCILING).getStatus()).isEqualTo("False");
            assertThat(get(c, CampaignConditions.READY).getStatus()).isEqualTo("False");
        }
    }

    @Test
    void anyRefusalReasonStallsAsGiven() {
        var c = CampaignConditions.refused("PreflightFailed", "doctor: ERROR target table has triggers");
        assertThat(get(c, CampaignConditions.STALLED)).extracting(CampaignCondition::getStatus, CampaignCondition::getReason,
                CampaignCondition::getMessage).containsExactly("True", "PreflightFailed", "doctor: ERROR target table has triggers");
        var stepped = CampaignConditions.of(CampaignPhase.Blocked, new CampaignConditions.Stall("PreflightFailed", "2 errors"), null, null);
        assertThat(get(stepped, CampaignConditions.STALLED).getReason()).isEqualTo("PreflightFailed");
        assertThat(get(stepped, CampaignConditions.READY).getReason()).isEqualTo("PreflightFailed");
    }

    @Test
    void suspendedAndHandedOffAreNeitherReconcilingNorStalled() {
        for (CampaignPhase phase : List.of(CampaignPhase.Suspended, CampaignPhase.HandoffCommitted)) {
            var c = CampaignConditions.forPhase(phase, null, "", null, null);
            assertThat(get(c, CampaignConditions.RECONCILING).getStatus()).as(phase.name()).isEqualTo("False");
            assertThat(get(c, CampaignConditions.STALLED).getStatus()).as(phase.name()).isEqualTo("False");
        }
    }

    @Test
    void aTransientProblemIsReconcilingAndDegradedAndKeepsReady() {
        var loading = ConditionSet.merge(List.of(), CampaignConditions.forPhase(CampaignPhase.Loading, null, "", null, null),
                java.time.Instant.EPOCH, 1L);
        var c = CampaignConditions.waiting(loading, "SecretNotFound", "Secret src-db not found");
        assertThat(get(c, CampaignConditions.RECONCILING)).extracting(CampaignCondition::getStatus, CampaignCondition::getReason)
                .containsExactly("True", "SecretNotFound");
        assertThat(get(c, CampaignConditions.DEGRADED).getStatus()).isEqualTo("True");
        assertThat(get(c, CampaignConditions.READY)).isEqualTo(get(loading, CampaignConditions.READY));
        assertThat(get(c, CampaignConditions.STALLED).getStatus()).isEqualTo("False");
    }

    private static io.dpone.backfill.core.campaign.ReconciliationStatus reconciled(boolean caughtUp, long queue) {
        var r = new io.dpone.backfill.core.campaign.ReconciliationStatus();
        r.setCaughtUp(caughtUp);
        r.setQueue(queue);
        r.setSyncAnchor("2001");
        r.setSyncAnchorFromPass(1);
        return r;
    }

    @Test
    void aReconciliationPassIsHealthyWorkNotReconcilingTrue() {
        var c = CampaignConditions.forPhase(CampaignPhase.Reconciling, null, "reconciliation pass 1 finished", null, null);
        assertThat(get(c, CampaignConditions.RECONCILING)).extracting(CampaignCondition::getStatus, CampaignCondition::getReason)
                .containsExactly("False", "Reconciling");
        assertThat(get(c, CampaignConditions.READY).getStatus()).isEqualTo("False");
        assertThat(get(c, CampaignConditions.STALLED).getStatus()).isEqualTo("False");
    }

    @Test
    void caughtUpSaysWhetherKeysWaitForAPersonAndIsNeverTrueWhilePassesStillRun() {
        assertThat(CampaignConditions.caughtUp(reconciled(true, 0), CampaignPhase.HandoffCommitted))
                .extracting(CampaignCondition::getStatus, CampaignCondition::getReason).containsExactly("True", "CaughtUp");
        assertThat(CampaignConditions.caughtUp(reconciled(true, 0), CampaignPhase.HandoffCommitted).getMessage())
                .contains("2001", "pass 1");
        assertThat(CampaignConditions.caughtUp(reconciled(false, 3), CampaignPhase.HandoffCommitted))
                .extracting(CampaignCondition::getStatus, CampaignCondition::getReason).containsExactly("False", "KeysQueued");
        assertThat(CampaignConditions.caughtUp(reconciled(false, 3), CampaignPhase.HandoffCommitted).getMessage())
                .startsWith("3 key(s)").contains("--accept");
        assertThat(CampaignConditions.caughtUp(reconciled(true, 0), CampaignPhase.Reconciling))
                .extracting(CampaignCondition::getStatus, CampaignCondition::getReason).containsExactly("False", "PassRunning");
        assertThat(CampaignConditions.caughtUp(reconciled(false, 0), CampaignPhase.HandoffCommitted).getReason())
                .isEqualTo("PassInterrupted");
    }
}
