package io.dpone.backfill.cli.plan;

import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.plan.CampaignBlueprint;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PlanReportTest {
    /** A campaign whose {@code spec} ends with {@code publication} and then {@code more}, indented as spec fields. */
    private static String text(String publication, String more) {
        String yaml = OrdersCampaign.yaml("{column: id, kind: integer, buckets: 4, lowerBound: 1, upperBound: 1000}",
                "  publication: " + publication + "\n" + more);
        return PlanReport.text(CampaignBlueprint.of(CampaignReader.parse(yaml)));
    }

    @Test
    void aCampaignWithSameNamesAndNoGroupIsTheSummaryLineAlone() {
        assertThat(text("{mode: shadow_swap}", "")).doesNotContain("\n").startsWith("plan orders: 4 integer chunks on id");
    }

    /** Issue 40: what lands where is visible before anything runs. */
    @Test
    void theTextShowsTheColumnMappingTheGroupAndManualApproval() {
        String text = text("{mode: shadow_swap, approval: manual, group: {name: shop, members: [orders, customers]}}",
                "  columns: {naming: snake-to-pascal, map: {list_price: Price}}\n");

        assertThat(text).contains("\ncolumns: each source column loads the target column snake-to-pascal names, except"
                + " (source -> target):\n  list_price -> Price");
        assertThat(text).contains("\npublication group shop (2 tables: ").contains("): swapped in one transaction");
        assertThat(text).contains("\napproval: manual");
    }
}
