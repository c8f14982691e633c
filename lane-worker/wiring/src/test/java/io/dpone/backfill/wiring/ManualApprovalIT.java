package io.dpone.backfill.wiring;

import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.engine.CampaignStatusProjector;
import io.dpone.backfill.core.engine.NextAction;
import io.dpone.backfill.core.engine.StepResult;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import io.dpone.backfill.testsupport.postgres.ItemsTable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Manual approval on a real PostgreSQL (issue 28): a validated campaign with {@code publication.approval: manual}
 * swaps nothing until a person approves; the approval (who, when) is recorded in the ledger and copied into the
 * publication receipt in the swap's transaction.
 */
class ManualApprovalIT {
    private static final String CHUNKS = "{column: id, kind: uuid, buckets: 4}";

    private CampaignHarness h;

    @BeforeEach
    void setUp() {
        h = new CampaignHarness();
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void nothingIsSwappedUntilAPersonApprovesAndTheReceiptRecordsWhoAndWhen() throws Exception {
        ItemsTable.createWithRows(h.source, 1200);
        ItemsTable.createWithOldRow(h.target);
        CampaignBlueprint b = CampaignHarness.blueprint(CampaignHarness.campaign("items_manual", CHUNKS,
                "  publication: {mode: shadow_swap, approval: manual}\n"));
        String runKey = b.identity().runKey();
        try (CampaignRuntime s = h.session(b)) {
            CampaignLease lease = CampaignHarness.openAndLease(s, b);
            h.runUntil(b, s, lease, CampaignPhase.Publishing);
            for (int i = 0; i < 3; i++) {
                StepResult waiting = s.engine().step(lease);
                assertThat(waiting.phase()).isEqualTo(CampaignPhase.Publishing);
                assertThat(waiting.next()).isEqualTo(new NextAction.AwaitApproval());
            }
            assertThat(h.target.queryForLong("SELECT count(*) FROM public.items")).as("the old table is still live").isEqualTo(1);
            assertThat(s.ledger().publicationReceipt(runKey)).isEmpty();
            BackfillCampaignStatus waiting = status(s, b);
            assertThat(waiting.getPublication().getApproval()).isEqualTo("manual");
            assertThat(waiting.getPublication().getApprovedBy()).isNull();

            assertThat(s.ledger().approvePublication(runKey, "dba@example.org").orElseThrow().approvedBy())
                    .isEqualTo("dba@example.org");
            StepResult done = h.runToSettled(b, s, lease);
            assertThat(done.phase()).as(done.message()).isEqualTo(CampaignPhase.HandoffCommitted);
            assertThat(ItemsTable.rows(h.target)).isEqualTo(ItemsTable.rows(h.source));
            assertThat(status(s, b).getPublication().getApprovedBy()).isEqualTo("dba@example.org");
            assertThat(status(s, b).getPublication().getApprovedAt()).isNotNull();
        }
        assertThat(h.target.queryForStrings("SELECT approved_by || ' ' || (approved_at IS NOT NULL)"
                + " FROM backfill_state.publication_receipt WHERE run_key = '" + runKey + "'"))
                .as("the receipt records the approval").containsExactly("dba@example.org true");
    }

    private static BackfillCampaignStatus status(CampaignRuntime s, CampaignBlueprint b) {
        String runKey = b.identity().runKey();
        var spec = b.definition().spec();
        return CampaignStatusProjector.withApproval(CampaignStatusProjector.project(spec, b.artifacts(),
                s.ledger().findByRunKey(runKey).orElseThrow(), s.ledger().counts(runKey, spec.getMaxChunkAttempts()),
                s.ledger().publicationReceipt(runKey), s.ledger().handoffReceipt(runKey), s.ledger().rollbackReceipt(runKey)),
                spec, s.ledger().publicationApproval(runKey));
    }
}
