package io.dpone.backfill.operator.status;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.ReconciliationStatus;
import io.dpone.backfill.core.reconcile.ChunkReconciled;
import io.dpone.backfill.core.reconcile.PassRecord;
import io.dpone.backfill.core.reconcile.QueuedKey;
import io.dpone.backfill.operator.support.PgCampaign;
import io.dpone.backfill.wiring.ReconciliationProjection;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status's reconciliation section stays small whatever the ledger holds (issue 38): a hundred passes and
 * ten thousand queued keys of long text give the same few hundred bytes as one pass and one key.
 */
class ReconciliationStatusBoundsTest {
    private static List<PassRecord> passes(int count) {
        List<PassRecord> all = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            all.add(new PassRecord(i, String.valueOf(1000 + i), String.valueOf(1001 + i), Instant.EPOCH, Instant.EPOCH,
                    new ChunkReconciled(10, 2, 1, i % 2 == 0), 16));
        }
        return all;
    }

    private static List<QueuedKey> queue(int count, int keyLength) {
        List<QueuedKey> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add(new QueuedKey("(" + String.valueOf(i).repeat(keyLength) + ")", "written by someone else", 1, null));
        }
        return keys;
    }

    @Test
    void aHundredPassesAndTenThousandLongQueuedKeysGiveASmallStatus() {
        var spec = PgCampaign.campaign("backfill", "items", "items_v1", 8, 2, "  reconcile: {mode: once}\n").getSpec();
        ReconciliationStatus big = ReconciliationProjection.of(spec, passes(100), 10_000, queue(10_000, 400));
        ReconciliationStatus small = ReconciliationProjection.of(spec, passes(1), 1, queue(1, 1));

        assertThat(big.getPassCount()).isEqualTo(100);
        assertThat(big.getUpserted()).isEqualTo(1000);
        assertThat(big.getPasses()).hasSize(ReconciliationStatus.MAX_PASSES_SHOWN)
                .extracting(ReconciliationStatus.Pass::getPass).containsExactly(96, 97, 98, 99, 100);
        assertThat(big.getQueue()).isEqualTo(10_000);
        assertThat(big.getQueueSample()).hasSize(ReconciliationStatus.MAX_QUEUE_SAMPLE)
                .allMatch(k -> k.length() <= ReconciliationStatus.MAX_KEY_TEXT);
        assertThat(big.getSyncAnchorFromPass()).isEqualTo(100);
        assertThat(big.getCaughtUp()).isFalse();

        BackfillCampaignStatus status = new BackfillCampaignStatus();
        status.setReconciliation(big);
        int bigSize = StatusJson.size(status);
        status.setReconciliation(small);
        int smallSize = StatusJson.size(status);
        assertThat(bigSize).as(StatusJson.write(status)).isLessThan(3000);
        assertThat(bigSize - smallSize).as("bounded, not growing with the ledger").isLessThan(2500);
    }
}
