package io.dpone.backfill.operator.driver;

import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.dpone.backfill.operator.support.PgCampaign;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class OperatorActionsTest {
    private static BackfillCampaign with(Map<String, String> annotations) {
        BackfillCampaign c = PgCampaign.campaign("ns", "items", "items_v1", 8, 2, "");
        c.getMetadata().setAnnotations(new HashMap<>(annotations));
        return c;
    }

    @Test
    void anActionIsPendingUntilItsTokenIsRecordedAsDone() {
        assertThat(OperatorActions.requeueToken(with(Map.of()))).isNull();
        assertThat(OperatorActions.requeueToken(with(Map.of(OperatorActions.REQUEUE_FAILED, "t1")))).isEqualTo("t1");
        assertThat(OperatorActions.requeueToken(with(Map.of(OperatorActions.REQUEUE_FAILED, "t1",
                OperatorActions.REQUEUE_FAILED + OperatorActions.DONE_SUFFIX, "t1")))).isNull();
        assertThat(OperatorActions.requeueToken(with(Map.of(OperatorActions.REQUEUE_FAILED, "t2",
                OperatorActions.REQUEUE_FAILED + OperatorActions.DONE_SUFFIX, "t1")))).as("a new value asks again").isEqualTo("t2");
        assertThat(OperatorActions.anyPending(with(Map.of(OperatorActions.ROLLBACK, "bad data")))).isTrue();
    }
}
