package io.dpone.backfill.core.campaign;

import io.dpone.backfill.core.manifest.CampaignReader;
import io.dpone.backfill.core.validation.CampaignRejectedException;
import io.dpone.backfill.core.validation.FieldError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.dpone.backfill.core.campaign.CampaignYamlFixture.mssql;
import static io.dpone.backfill.core.campaign.CampaignYamlFixture.replaceOnce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** {@code spec.publication.group} (issue 27): validated naming the field; the terms every member must share. */
class PublicationGroupTest {
    private static final String GROUP = "  publication:\n    group: %s\n";

    private static String withGroup(String group) {
        return replaceOnce(mssql(), "  publication:\n", String.format(GROUP, group));
    }

    @Test
    void aBadGroupIsRefusedNamingTheField() {
        String table = CampaignReader.parse(mssql()).spec().getTarget().getTable();
        assertThat(paths(withGroup("{name: Music_Store, members: [" + table + ", b]}"))).containsExactly("spec.publication.group.name");
        assertThat(paths(withGroup("{name: music, members: [" + table + "]}"))).containsExactly("spec.publication.group.members");
        assertThat(paths(withGroup("{name: music, members: [a, b]}"))).containsExactly("spec.publication.group.members");
        assertThat(paths(withGroup("{name: music, members: [" + table + ", b, b]}"))).containsExactly("spec.publication.group.members[2]");
        assertThat(paths(withGroup("{members: [" + table + ", b]}"))).containsExactly("spec.publication.group.name");
        assertThat(paths(withGroup("{name: music, members: [" + table + ", sales.customers]}")))
                .as("a member in another schema").containsExactly("spec.publication.group.members[1]");
    }

    @Test
    void aReadBackSettingOnADirectCampaignIsRefusedNotIgnored() {
        String direct = replaceOnce(mssql(), "  publication:\n", "  publication:\n    verify: counts\n");
        direct = direct.replace("mode: shadow_swap", "mode: direct");
        assertThat(paths(direct)).contains("spec.publication.verify");
    }

    @Test
    void membersWithTheSameListInAnotherOrderShareTheirTermsAndAnotherWindowDoesNot() {
        String table = CampaignReader.parse(mssql()).spec().getTarget().getTable();
        PublicationGroup a = PublicationGroup.of(CampaignReader.parse(withGroup("{name: music, members: [" + table + ", b]}")).spec()).orElseThrow();
        PublicationGroup b = PublicationGroup.of(CampaignReader.parse(withGroup("{name: music, members: [b, " + table + "]}")).spec()).orElseThrow();
        assertThat(a.termsDigest()).isEqualTo(b.termsDigest());
        assertThat(a.members()).containsExactly("b", table).isSorted();
        String other = replaceOnce(withGroup("{name: music, members: [" + table + ", b]}"), "    group:",
                "    window: {from: '01:00', to: '03:00'}\n    group:");
        assertThat(PublicationGroup.of(CampaignReader.parse(other).spec()).orElseThrow().termsDigest())
                .as("a member with another window is on other terms").isNotEqualTo(a.termsDigest());
    }

    private static List<String> paths(String yaml) {
        CampaignRejectedException e = catchThrowableOfType(CampaignRejectedException.class, () -> CampaignReader.parse(yaml));
        assertThat(e).as(yaml).isNotNull();
        return e.errors().stream().map(FieldError::path).toList();
    }
}
