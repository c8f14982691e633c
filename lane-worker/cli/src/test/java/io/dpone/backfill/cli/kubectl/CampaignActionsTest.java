package io.dpone.backfill.cli.kubectl;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The exact merge patches the plugin sends: one field each, nothing else the operator or GitOps could see change. */
class CampaignActionsTest {
    @Test
    void suspendAndResumeTouchOnlySpecSuspend() {
        assertThat(CampaignActions.suspend(true)).isEqualTo("{\"spec\":{\"suspend\":true}}");
        assertThat(CampaignActions.suspend(false)).isEqualTo("{\"spec\":{\"suspend\":false}}");
    }

    @Test
    void actionsAreOneAnnotationWithTheTokenAsValue() {
        assertThat(CampaignActions.annotate(CampaignActions.REQUEUE_FAILED, "1764583200"))
                .isEqualTo("{\"metadata\":{\"annotations\":{\"backfill.dpone.io/requeue-failed\":\"1764583200\"}}}");
        assertThat(CampaignActions.annotate(CampaignActions.ROLLBACK, "say \"why\""))
                .isEqualTo("{\"metadata\":{\"annotations\":{\"backfill.dpone.io/rollback\":\"say \\\"why\\\"\"}}}");
    }

    @Test
    void theProgressBarIsFixedWidthAndClamped() {
        assertThat(ProgressBar.of(0, 0)).isEqualTo("[" + "-".repeat(30) + "]   0%");
        assertThat(ProgressBar.of(212, 512)).isEqualTo("[############------------------]  41%");
        assertThat(ProgressBar.of(600, 512)).isEqualTo("[" + "#".repeat(30) + "] 100%");
    }
}
