package io.dpone.backfill.operator.resource;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.BackfillCampaignStatus;
import io.dpone.backfill.core.campaign.CampaignDocument;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.generator.annotation.ValidationRule;
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
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = Type.STRING)
@AdditionalPrinterColumn(name = "Committed", jsonPath = ".status.progress.committedChunks", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Total", jsonPath = ".status.progress.totalChunks", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Rows", jsonPath = ".status.progress.rowsLoaded", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Rows/s", jsonPath = ".status.progress.rowsPerSecond", type = Type.NUMBER)
@AdditionalPrinterColumn(name = "ETA(s)", jsonPath = ".status.progress.etaSeconds", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
@ValidationRule(value = "self.metadata.name.size() <= " + BackfillCampaign.MAX_NAME_LENGTH,
        message = "metadata.name must be at most " + BackfillCampaign.MAX_NAME_LENGTH
                + " characters: lane pods are named <campaign>-lane-<n>-<attempt>")
public class BackfillCampaign extends CustomResource<BackfillCampaignSpec, BackfillCampaignStatus> implements Namespaced {
    public static final String GROUP = "backfill.dpone.io";
    public static final String VERSION = "v1alpha1";
    /** The same bound core's validator puts on campaign names (room for the lane pod suffix within 63). */
    public static final int MAX_NAME_LENGTH = 45;
}
