package io.dpone.backfill.core.campaign;

import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.dpone.backfill.core.campaign.CampaignYamlFixture.postgres;
import static io.dpone.backfill.core.campaign.CampaignYamlFixture.replaceOnce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** {@code spec.reconcile} as a campaign file states it (issue 38): read strictly, refused naming its field. */
class ReconcileSpecTest {
    private static String withReconcile(String reconcile) {
        return replaceOnce(postgres(), "  publication:\n", "  reconcile: " + reconcile + "\n  publication:\n");
    }

    @Test
    void onceAndUntilAreReadAndUntilGetsItsDefaultPassLimit() {
        assertThat(CampaignReader.parse(withReconcile("{mode: once}")).spec().reconcileMode()).isEqualTo(ReconcileMode.ONCE);
        ReconcileSpec until = CampaignReader.parse(withReconcile("{mode: until, maxChangedRows: 100, deadline: 1h30m}"))
                .spec().getReconcile();
        assertThat(until.getMaxPasses()).isEqualTo(ReconcileSpec.DEFAULT_MAX_PASSES);
        assertThat(until.deadlineDuration()).contains(Duration.ofMinutes(90));
    }

    @Test
    void noneIsTheDefaultAndLeavesTheRunKeyOfACampaignWithoutTheField() {
        String without = CampaignBlueprint.of(CampaignReader.parse(postgres())).identity().runKey();
        CampaignBlueprint off = CampaignBlueprint.of(CampaignReader.parse(withReconcile("{mode: none}")));
        assertThat(off.definition().spec().reconcileMode()).isEqualTo(ReconcileMode.NONE);
        assertThat(off.identity().runKey()).isEqualTo(without);
        assertThat(CampaignBlueprint.of(CampaignReader.parse(withReconcile("{mode: once}"))).identity().runKey())
                .as("passes before the handoff change what it carries: part of the identity").isNotEqualTo(without);
    }

    @Test
    void badReconcileSettingsAreRefusedNamingTheField() {
        assertThat(paths(withReconcile("{mode: until}"))).containsExactly("spec.reconcile");
        assertThat(paths(withReconcile("{mode: once, maxPasses: 3}"))).containsExactly("spec.reconcile.maxPasses");
        assertThat(paths(withReconcile("{maxChangedRows: 3}"))).containsExactly("spec.reconcile.maxChangedRows");
        assertThat(paths(withReconcile("{mode: until, deadline: 2 hours}"))).contains("spec.reconcile.deadline");
        assertThat(paths(withReconcile("{mode: until, deadline: 0s}"))).containsExactly("spec.reconcile.deadline");
        assertThat(paths(withReconcile("{mode: until, deadline: 721h}"))).containsExactly("spec.reconcile.deadline");
        assertThat(paths(withReconcile("{mode: until, maxChangedRows: -1}"))).contains("spec.reconcile.maxChangedRows");
        assertThat(paths(withReconcile("{mode: until, maxChangedRows: 1, maxPasses: 101}"))).contains("spec.reconcile.maxPasses");
        assertThat(paths(withReconcile("{mode: always}"))).anyMatch(p -> p.startsWith("spec.reconcile"));
        assertThat(paths(withReconcile("{mode: once, passes: 2}"))).anyMatch(p -> p.startsWith("spec.reconcile"));
    }

    private static List<String> paths(String yaml) {
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(yaml));
        assertThat(e).as(yaml).isNotNull();
        return e.errors().stream().map(FieldError::path).toList();
    }
}
