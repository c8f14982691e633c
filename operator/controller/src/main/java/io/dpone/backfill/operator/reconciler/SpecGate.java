package io.dpone.backfill.operator.reconciler;

import io.dpone.backfill.core.campaign.CampaignDocument;
import io.dpone.backfill.core.campaign.CampaignMetadata;
import io.dpone.backfill.core.validation.CampaignValidator;
import io.dpone.backfill.core.validation.FieldError;
import io.dpone.backfill.operator.resource.BackfillCampaign;

import java.util.List;

/**
 * The operator's own validation, authoritative wherever the API server's schema and CEL rules are not enforced:
 * the same rules as {@code backfill plan}, over the resource's name, namespace, labels and spec, with no I/O.
 */
public final class SpecGate {
    private SpecGate() {
    }

    public static List<FieldError> errors(BackfillCampaign campaign) {
        CampaignDocument doc = new CampaignDocument();
        doc.setApiVersion(CampaignDocument.API_VERSION);
        doc.setKind(CampaignDocument.KIND);
        CampaignMetadata metadata = new CampaignMetadata();
        metadata.setName(campaign.getMetadata().getName());
        metadata.setNamespace(campaign.getMetadata().getNamespace());
        metadata.setLabels(campaign.getMetadata().getLabels());
        doc.setMetadata(metadata);
        doc.setSpec(campaign.getSpec());
        return CampaignValidator.validate(doc);
    }
}
