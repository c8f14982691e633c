package io.dpone.backfill.cli;

import io.dpone.backfill.cli.status.NextActionText;
import io.dpone.backfill.core.engine.NextAction;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The CLI renders the engine's typed next action in its own commands; nothing is asked when there is nothing. */
class NextActionTextTest {
    @Test
    void eachNextActionNamesTheCliCommandThatCarriesItOut() {
        assertThat(NextActionText.of(NextAction.NONE)).isNull();
        assertThat(NextActionText.of(new NextAction.FixThenResume("2 chunk(s) failed 3 time(s)")))
                .contains("2 chunk(s) failed").contains("`backfill resume`");
        assertThat(NextActionText.of(new NextAction.LiftSuspension())).contains("spec.suspend").contains("`backfill run`");
        assertThat(NextActionText.of(new NextAction.NewCampaign("public.t__bf_shadow")))
                .contains("new backfillId").contains("public.t__bf_shadow is kept");
        assertThat(NextActionText.of(new NextAction.NewCampaign(null))).doesNotContain("kept");
        assertThat(NextActionText.of(new NextAction.StartIncrementalSync("4242"))).endsWith("XMin anchor 4242");
        assertThat(NextActionText.of(new NextAction.ReconcileBeforeSync("public.t"))).contains("public.t is the published table").contains("`backfill rollback`");
    }
}
