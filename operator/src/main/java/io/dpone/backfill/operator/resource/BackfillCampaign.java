package io.dpone.backfill.operator.resource;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignDocument;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The {@code BackfillCampaign} custom resource. Spec and status are core's classes, so the CLI's campaign files
 * and the cluster's resources can never drift into two copies of the model.
 */
@Group(BackfillCampaign.GROUP)
@Version(BackfillCampaign.VERSION)
@Kind(CampaignDocument.KIND)
@Singular("backfillcampaign")
@Plural("backfillcampaigns")
@ShortNames("bfc")
public class BackfillCampaign extends CustomResource<BackfillCampaignSpec, BackfillCampaignStatus> implements Namespaced {
    public static final String GROUP = "backfill.dpone.io";
    public static final String VERSION = "v1alpha1";
}
