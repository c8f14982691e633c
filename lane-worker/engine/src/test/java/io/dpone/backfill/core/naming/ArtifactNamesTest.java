package io.dpone.backfill.core.naming;

import io.dpone.backfill.core.campaign.IdentifierLimit;
import io.dpone.backfill.core.campaign.ArtifactScope;
import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignYamlFixture;
import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.validation.IdentifierRules;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ArtifactNamesTest {

    private static BackfillCampaignSpec spec(TargetType type, String table, ArtifactScope scope, String backfillId) {
        BackfillCampaignSpec s = CampaignReader.parse(CampaignYamlFixture.mssql()).spec();
        s.getTarget().setType(type);
        s.getTarget().setTable(table);
        s.getPublication().setArtifactScope(scope);
        s.setBackfillId(backfillId);
        return s;
    }

    @Test
    void stableScopeUsesOneNamePerTarget() {
        ArtifactNames names = ArtifactNames.derive(spec(TargetType.MSSQL, "orders", ArtifactScope.STABLE, "a"));
        assertThat(names.shadowTable()).isEqualTo("orders__bf_shadow");
        assertThat(names.backupTable()).isEqualTo("orders__bf_backup");
        assertThat(names.schema()).isEqualTo("dbo");
        assertThat(ArtifactNames.derive(spec(TargetType.MSSQL, "orders", ArtifactScope.STABLE, "b"))).isEqualTo(names);
    }

    @Test
    void campaignScopeCarriesABoundedDigestOfTheBackfillId() {
        ArtifactNames v1 = ArtifactNames.derive(spec(TargetType.MSSQL, "orders", ArtifactScope.CAMPAIGN, "orders_v1"));
        ArtifactNames v2 = ArtifactNames.derive(spec(TargetType.MSSQL, "orders", ArtifactScope.CAMPAIGN, "orders_v2"));
        assertThat(v1.shadowTable()).matches("orders__bf_[0-9a-f]{8}_shadow");
        assertThat(v1.backupTable()).matches("orders__bf_[0-9a-f]{8}_backup");
        assertThat(v1.shadowTable()).isNotEqualTo(v2.shadowTable());
        String longId = "x".repeat(63);
        assertThat(ArtifactNames.derive(spec(TargetType.MSSQL, "orders", ArtifactScope.CAMPAIGN, longId)).shadowTable())
                .hasSize("orders__bf_12345678_shadow".length());
    }

    @Test
    void longestPostgresTableYieldsNamesWithinSixtyThreeBytes() {
        for (String table : new String[]{"t".repeat(63), "é".repeat(31), "表".repeat(21), "a" + "é".repeat(31)}) {
            for (ArtifactScope scope : ArtifactScope.values()) {
                ArtifactNames names = ArtifactNames.derive(spec(TargetType.POSTGRES, table, scope, "id"));
                for (String name : new String[]{names.shadowTable(), names.backupTable()}) {
                    assertThat(name.getBytes(StandardCharsets.UTF_8).length).as(name).isLessThanOrEqualTo(63);
                    assertThat(IdentifierRules.problem(name, IdentifierLimit.POSTGRES)).as(name).isEmpty();
                    assertThat(name).doesNotContain("\uFFFD");
                }
                assertThat(names.shadowTable()).isNotEqualTo(names.backupTable());
            }
        }
    }

    @Test
    void longestMssqlTableYieldsNamesWithin128Characters() {
        ArtifactNames names = ArtifactNames.derive(spec(TargetType.MSSQL, "t".repeat(128), ArtifactScope.CAMPAIGN, "id"));
        assertThat(names.shadowTable()).hasSizeLessThanOrEqualTo(128).endsWith("_shadow");
        assertThat(names.backupTable()).hasSizeLessThanOrEqualTo(128).endsWith("_backup");
    }

    @Test
    void shortenedNamesOfDifferentTablesWithACommonPrefixStayDistinct() {
        String a = "p".repeat(60) + "_a";
        String b = "p".repeat(60) + "_b";
        ArtifactNames na = ArtifactNames.derive(spec(TargetType.POSTGRES, a, ArtifactScope.STABLE, "id"));
        ArtifactNames nb = ArtifactNames.derive(spec(TargetType.POSTGRES, b, ArtifactScope.STABLE, "id"));
        assertThat(na.shadowTable()).isNotEqualTo(nb.shadowTable());
    }
}
