package io.dpone.backfill.core.campaign;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static io.dpone.backfill.core.campaign.CampaignPhase.Blocked;
import static io.dpone.backfill.core.campaign.CampaignPhase.HandoffCommitted;
import static io.dpone.backfill.core.campaign.CampaignPhase.Invalid;
import static io.dpone.backfill.core.campaign.CampaignPhase.Loading;
import static io.dpone.backfill.core.campaign.CampaignPhase.Planned;
import static io.dpone.backfill.core.campaign.CampaignPhase.Prepared;
import static io.dpone.backfill.core.campaign.CampaignPhase.Published;
import static io.dpone.backfill.core.campaign.CampaignPhase.Publishing;
import static io.dpone.backfill.core.campaign.CampaignPhase.Recoverable;
import static io.dpone.backfill.core.campaign.CampaignPhase.Suspended;
import static io.dpone.backfill.core.campaign.CampaignPhase.Validating;
import static org.assertj.core.api.Assertions.assertThat;

/** The state machine's legal transitions, as one table (src-docs/architecture.md section 4). */
class CampaignPhaseTest {
    @Test
    void theTransitionTableIsExactlyTheDesignsStateMachine() {
        assertThat(Planned.next()).containsExactlyInAnyOrder(Prepared, Blocked);
        assertThat(Prepared.next()).containsExactlyInAnyOrder(Loading, Suspended, Blocked);
        assertThat(Loading.next()).containsExactlyInAnyOrder(Validating, Recoverable, Suspended, Blocked);
        assertThat(Suspended.next()).containsExactly(Loading);
        assertThat(Recoverable.next()).containsExactly(Loading);
        assertThat(Validating.next()).containsExactlyInAnyOrder(Publishing, Published, Blocked);
        assertThat(Publishing.next()).containsExactlyInAnyOrder(Published, Blocked);
        assertThat(Published.next()).containsExactlyInAnyOrder(HandoffCommitted, Blocked);
        for (CampaignPhase terminal : EnumSet.of(HandoffCommitted, Blocked, Invalid)) {
            assertThat(terminal.next()).as(terminal + " is terminal").isEmpty();
        }
    }

    @Test
    void nothingReachesPlannedOrInvalidAndNothingLeavesAPublicationBackwards() {
        for (CampaignPhase from : CampaignPhase.values()) {
            assertThat(from.canMoveTo(Planned)).isFalse();
            assertThat(from.canMoveTo(Invalid)).isFalse();
        }
        for (CampaignPhase before : EnumSet.of(Planned, Prepared, Loading, Suspended, Recoverable, Validating)) {
            assertThat(Published.canMoveTo(before)).isFalse();
            assertThat(Publishing.canMoveTo(before)).isFalse();
        }
    }
}
