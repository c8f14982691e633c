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
// kubectl shows these in the order written here; the CRD generator sorts them by jsonPath, so the committed CRD
// puts them back in this order (crds' CommittedCrdTest, ADR 0011).
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = Type.STRING)
@AdditionalPrinterColumn(name = "Chunks", jsonPath = ".status.progress.chunks", type = Type.STRING)
@AdditionalPrinterColumn(name = "Rows", jsonPath = ".status.progress.rowsLoaded", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Rate", jsonPath = ".status.progress.rowsPerSecond", type = Type.NUMBER)
@AdditionalPrinterColumn(name = "ETA", jsonPath = ".status.progress.eta", type = Type.STRING)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status", type = Type.STRING)
// Why it is where it is: Loading, AwaitingApproval, AwaitingPublicationWindow, AwaitingGroup, a block reason, Completed.
@AdditionalPrinterColumn(name = "Reason", jsonPath = ".status.conditions[?(@.type==\"Reconciling\")].reason", type = Type.STRING)
// The publication group it swaps with (issue 27), empty for a campaign of its own.
@AdditionalPrinterColumn(name = "Group", jsonPath = ".spec.publication.group.name", type = Type.STRING, priority = 1)
// Reconciliation passes after publication (issue 38): how many began, and the keys waiting for a person.
@AdditionalPrinterColumn(name = "Passes", jsonPath = ".status.reconciliation.passCount", type = Type.INTEGER, priority = 1)
@AdditionalPrinterColumn(name = "Queued", jsonPath = ".status.reconciliation.queue", type = Type.INTEGER, priority = 1)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
// The CRD's CEL rules (CampaignRules, ADR 0030); on the root, where a transition rule can see spec and status.
@ValidationRule(value = CampaignRules.NAME_RULE, message = CampaignRules.NAME_MESSAGE)
@ValidationRule(value = CampaignRules.PLAN_RULE, message = CampaignRules.PLAN_MESSAGE, reason = "FieldValueForbidden")
@ValidationRule(value = CampaignRules.RECONCILE_RULE, message = CampaignRules.RECONCILE_MESSAGE,
        fieldPath = CampaignRules.RECONCILE_FIELD)
public class BackfillCampaign extends CustomResource<BackfillCampaignSpec, BackfillCampaignStatus> implements Namespaced {
    public static final String GROUP = "backfill.dpone.io";
    public static final String VERSION = "v1alpha1";
    /** The same bound core's validator puts on campaign names (room for the lane pod suffix within 63). */
    public static final int MAX_NAME_LENGTH = CampaignRules.MAX_NAME_LENGTH;
}
