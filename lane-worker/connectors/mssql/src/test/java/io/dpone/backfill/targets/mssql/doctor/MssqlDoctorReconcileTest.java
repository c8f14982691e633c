package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.campaign.IdentifierComparison;
import io.dpone.backfill.core.campaign.ReconcileMode;
import io.dpone.backfill.core.campaign.ReconcileSpec;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.doctor.Severity;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorTarget.LiveTarget;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorTarget.TargetColumn;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the doctor asks of the reviewed table when a campaign has spec.reconcile (ADR 0056), without an engine. */
class MssqlDoctorReconcileTest {
    private static final TargetColumn ID = column("id", "uniqueidentifier");
    private static final TargetColumn NOTE = column("note", "nvarchar");
    private static final TargetColumn VERSION = column("dpone_row_version", "timestamp");

    @Test
    void withoutSpecReconcileTheTableNeedsNothingMore() {
        assertThat(findings(spec(null, List.of("id")), List.of(ID, NOTE))).isEmpty();
        assertThat(findings(spec(ReconcileMode.NONE, List.of("id")), List.of(ID, NOTE))).isEmpty();
    }

    @Test
    void aReconcilingCampaignIntoATableWithoutARowversionColumnIsRefusedNamingTheFieldAndTheFix() {
        List<Finding> found = findings(spec(ReconcileMode.UNTIL, List.of("id")), List.of(ID, NOTE));
        assertThat(found).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.code()).isEqualTo("target.reconcile.row-version-missing");
            assertThat(f.message()).contains("spec.reconcile is until").contains("s.orders");
            assertThat(f.recommendedAction()).contains("ALTER TABLE [s].[orders] ADD [dpone_row_version] rowversion")
                    .contains("remove spec.reconcile");
        });
    }

    @Test
    void aRowversionColumnOfAnyNameIsWhatPassesUse() {
        TargetColumn stamped = column("Stamp", "rowversion");
        assertThat(findings(spec(ReconcileMode.ONCE, List.of("id")), List.of(ID, NOTE, stamped)))
                .singleElement().satisfies(f -> {
                    assertThat(f.code()).isEqualTo("target.reconcile.row-version");
                    assertThat(f.severity()).isEqualTo(Severity.OK);
                    assertThat(f.message()).contains("Stamp");
                });
    }

    @Test
    void aKeyColumnWhoseValuesCannotPrintAsTheSourcesKeyTextIsRefused() {
        TargetColumn placed = column("placed_at", "datetime2");
        List<Finding> found = findings(spec(ReconcileMode.ONCE, List.of("id", "placed_at")), List.of(ID, placed, VERSION));
        assertThat(found).extracting(Finding::code).containsExactly("target.reconcile.row-version", "target.reconcile.key-type");
        assertThat(found.get(1).message()).contains("placed_at").contains("datetime2")
                .contains("smallint, int, bigint, nvarchar, varchar and uniqueidentifier");
        for (String type : List.of("int", "bigint", "smallint", "nvarchar", "varchar", "uniqueidentifier")) {
            assertThat(findings(spec(ReconcileMode.ONCE, List.of("k")), List.of(column("k", type), VERSION)))
                    .as(type).extracting(Finding::severity).containsOnly(Severity.OK);
        }
    }

    private static List<Finding> findings(BackfillCampaignSpec spec, List<TargetColumn> columns) {
        List<Finding> findings = new ArrayList<>();
        MssqlDoctorReconcile.check(spec, new LiveTarget(1, "s", "orders", columns), IdentifierComparison.EXACT, findings);
        return findings;
    }

    private static BackfillCampaignSpec spec(ReconcileMode mode, List<String> key) {
        BackfillCampaignSpec spec = CampaignReader.parse(CampaignYamlFixture.mssql()).spec();
        spec.setUniqueKey(key);
        if (mode != null) {
            ReconcileSpec reconcile = new ReconcileSpec();
            reconcile.setMode(mode);
            spec.setReconcile(reconcile);
        }
        return spec;
    }

    private static TargetColumn column(String name, String type) {
        return new TargetColumn(name, type, false, false, false, false, null, true);
    }
}
