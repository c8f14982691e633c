package io.dpone.backfill.cli.kubectl;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * BackfillCampaigns as generic resources: the plugin needs no operator classes, only the resource's coordinates
 * (the same as the CRD's in crds/).
 */
public final class Campaigns {
    static final String GROUP = "backfill.dpone.io";
    static final String VERSION = "v1alpha1";
    static final String KIND = "BackfillCampaign";
    static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup(GROUP).withVersion(VERSION).withKind(KIND).withPlural("backfillcampaigns").withNamespaced(true).build();

    private Campaigns() {
    }

    static GenericKubernetesResource get(KubernetesClient client, String namespace, String name) {
        GenericKubernetesResource campaign;
        try {
            campaign = resource(client, namespace, name).get();
        } catch (KubernetesClientException e) {
            // Fabric8's own message names only the operation; the cause says why (no cluster, no permission).
            throw new KubernetesClientException("cannot read backfillcampaign " + namespace + "/" + name + " from "
                    + client.getMasterUrl() + ": " + why(e), e);
        }
        if (campaign == null) {
            throw new CampaignNotFoundException("backfillcampaign " + namespace + "/" + name + " not found");
        }
        return campaign;
    }

    /** A JSON merge patch on the resource itself (never the status subresource): what an edit in Git would change. */
    static GenericKubernetesResource mergePatch(KubernetesClient client, String namespace, String name, String patch) {
        get(client, namespace, name);
        return resource(client, namespace, name).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    /** The innermost cause that says something (a refused connection, a 403), else the exception's own text. */
    private static String why(KubernetesClientException e) {
        String why = e.getCode() > 0 ? "HTTP " + e.getCode() + " " + e.getMessage() : null;
        for (Throwable t = e.getCause(); t != null && why == null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                why = t.getClass().getSimpleName() + ": " + t.getMessage();
            } else if (t.getCause() == null) {
                why = t.getClass().getSimpleName();
            }
        }
        return why != null ? why : String.valueOf(e.getMessage());
    }

    private static Resource<GenericKubernetesResource> resource(KubernetesClient client, String namespace, String name) {
        return client.genericKubernetesResources(CONTEXT).inNamespace(namespace).withName(name);
    }

    /** The named campaign does not exist: exit 1 with a message, never a stack trace. */
    static final class CampaignNotFoundException extends RuntimeException {
        CampaignNotFoundException(String message) {
            super(message);
        }
    }
}
