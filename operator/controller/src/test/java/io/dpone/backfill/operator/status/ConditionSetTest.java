package io.dpone.backfill.operator.status;

import io.dpone.backfill.core.campaign.CampaignCondition;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.BlockReason;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConditionSetTest {
    private static final Instant T1 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant T2 = Instant.parse("2026-01-01T10:05:00Z");

    @Test
    void aConditionKeepsItsTransitionTimeWhileItsStatusStaysTheSame() {
        List<CampaignCondition> first = ConditionSet.merge(List.of(), List.of(ConditionSet.wanted("Ready", false, "Loading", "a")), T1, 1L);
        List<CampaignCondition> second = ConditionSet.merge(first, List.of(ConditionSet.wanted("Ready", false, "Validating", "b")), T2, 1L);
        assertThat(second.get(0).getLastTransitionTime()).isEqualTo("2026-01-01T10:00:00Z");
        assertThat(second.get(0).getReason()).isEqualTo("Validating");
        List<CampaignCondition> third = ConditionSet.merge(second, List.of(ConditionSet.wanted("Ready", true, "HandoffCommitted", "c")), T2, 1L);
        assertThat(third.get(0).getLastTransitionTime()).isEqualTo("2026-01-01T10:05:00Z");
    }

    @Test
    void mergingTheSameWantedConditionsTwiceGivesEqualLists() {
        var wanted = CampaignConditions.forPhase(io.dpone.backfill.core.campaign.CampaignPhase.Loading, null, "loading", null, null);
        List<CampaignCondition> a = ConditionSet.merge(List.of(), wanted, T1, 3L);
        List<CampaignCondition> b = ConditionSet.merge(a, wanted, T2, 3L);
        assertThat(b).isEqualTo(a);
        assertThat(b).extracting(CampaignCondition::getType).containsExactly("Ready", "Reconciling", "Stalled", "Degraded");
    }

    @Test
    void messagesAreBounded() {
        List<CampaignCondition> c = ConditionSet.merge(List.of(), List.of(ConditionSet.wanted("Stalled", true, "Invalid", "x".repeat(5000))), T1, 1L);
        assertThat(c.get(0).getMessage()).hasSizeLessThan(1100);
    }

    @Test
    void blockedReasonsAreTheEnginesTypedReasonsNeverParsedFromTheMessage() {
        assertThat(CampaignConditions.stallOf(CampaignPhase.Blocked, BlockReason.VALIDATION_FAILED, "validation failed: 1 duplicate keys")
                .reason()).isEqualTo("ValidationFailed");
        assertThat(CampaignConditions.stallOf(CampaignPhase.Blocked, BlockReason.SCHEMA_DRIFT, "source table items changed shape")
                .reason()).isEqualTo("SchemaDrift");
        assertThat(CampaignConditions.stallOf(CampaignPhase.Blocked, BlockReason.TABLE_MISSING, "target table public.x does not exist")
                .reason()).isEqualTo("TableMissing");
        // The message's wording no longer decides: a reason recorded as drift stays drift whatever the text says.
        assertThat(CampaignConditions.stallOf(CampaignPhase.Blocked, BlockReason.LIVE_TARGET_WRITTEN, "validation failed?")
                .reason()).isEqualTo("LiveTargetWritten");
        assertThat(CampaignConditions.stallOf(CampaignPhase.Blocked, null, "a detail from an older ledger").reason())
                .isEqualTo("Blocked");
    }
}
