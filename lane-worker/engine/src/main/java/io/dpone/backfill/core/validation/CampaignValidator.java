package io.dpone.backfill.core.validation;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.CampaignDocument;
import io.dpone.backfill.core.campaign.CampaignMetadata;
import io.dpone.backfill.core.campaign.SpecDefaults;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.core.campaign.IdentifierLimit;

import java.util.List;
import java.util.Map;

/**
 * Validates a whole campaign document with no I/O: field presence, bounds, identifier safety and route rules.
 * Every error names its field path and rule; all errors are reported at once.
 */
public final class CampaignValidator {
    private CampaignValidator() {
    }

    public static List<FieldError> validate(CampaignDocument doc) {
        Errors errors = new Errors();
        if (!CampaignDocument.API_VERSION.equals(doc.getApiVersion())) {
            errors.add("apiVersion", "api-version", "must be " + CampaignDocument.API_VERSION);
        }
        if (!CampaignDocument.KIND.equals(doc.getKind())) {
            errors.add("kind", "kind", "must be " + CampaignDocument.KIND);
        }
        CampaignMetadata metadata = doc.getMetadata();
        if (errors.require(metadata, "metadata")) {
            KubernetesNames.campaignName(metadata.getName(), "metadata.name", errors);
            KubernetesNames.namespace(metadata.getNamespace(), "metadata.namespace", errors);
            labels(metadata.getLabels(), "metadata.labels", errors);
        }
        if (errors.require(doc.getSpec(), "spec")) {
            spec(doc.getSpec(), errors);
        }
        return errors.list();
    }

    /** Validates a spec alone (the operator's path: metadata is validated by the API server). */
    public static List<FieldError> validateSpec(BackfillCampaignSpec spec) {
        Errors errors = new Errors();
        if (errors.require(spec, "spec")) {
            spec(spec, errors);
        }
        return errors.list();
    }

    /** Validates and returns the normalised spec, or throws with every error. */
    public static BackfillCampaignSpec normalised(BackfillCampaignSpec spec) {
        List<FieldError> errors = validateSpec(spec);
        if (!errors.isEmpty()) {
            throw new CampaignRejectedException(errors);
        }
        return SpecDefaults.apply(spec);
    }

    private static void spec(BackfillCampaignSpec spec, Errors errors) {
        StructureRules.check(spec, errors);
        if (!errors.isEmpty()) {
            // Route rules reason over the normalised spec; they only make sense once its structure is sound.
            return;
        }
        BackfillCampaignSpec normalised = SpecDefaults.apply(spec);
        RouteRules.check(normalised, errors);
        ArtifactNames names = ArtifactNames.derive(normalised);
        IdentifierLimit targetLimit = normalised.getTarget().getType().identifierLimit();
        errors.identifier(names.shadowTable(), "spec.target.table", targetLimit);
        errors.identifier(names.backupTable(), "spec.target.table", targetLimit);
    }

    private static void labels(Map<String, String> labels, String path, Errors errors) {
        if (labels == null) {
            return;
        }
        labels.forEach((k, v) -> {
            KubernetesNames.labelKey(k, path + "." + k, errors);
            KubernetesNames.labelValue(v, path + "." + k, errors);
        });
    }
}
