package io.dpone.backfill.operator.driver;

import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

import java.util.Map;

/**
 * Operator-authorised actions, requested with annotations so that GitOps tools can carry them: the value is a token
 * (any text, e.g. a timestamp or a reason), and the operator records the token it handled in a {@code -done}
 * annotation, so an action runs once per new value, never again on a re-apply of the same manifest.
 * <ul>
 *     <li>{@value #REQUEUE_FAILED}: re-queue failed chunks with a fresh attempt budget and reset the lane pod
 *     failure budget (a Recoverable campaign loads again).</li>
 *     <li>{@value #ROLLBACK}: swap the retained backup back in as the live table, with a rollback receipt; the
 *     value is the reason recorded in the receipt.</li>
 * </ul>
 */
public final class OperatorActions {
    public static final String REQUEUE_FAILED = "backfill.dpone.io/requeue-failed";
    public static final String ROLLBACK = "backfill.dpone.io/rollback";
    public static final String DONE_SUFFIX = "-done";
    private static final int MAX_TOKEN = 256;

    private OperatorActions() {
    }

    public static String requeueToken(BackfillCampaign campaign) {
        return pending(campaign, REQUEUE_FAILED);
    }

    public static String rollbackReason(BackfillCampaign campaign) {
        return pending(campaign, ROLLBACK);
    }

    public static boolean anyPending(BackfillCampaign campaign) {
        return requeueToken(campaign) != null || rollbackReason(campaign) != null;
    }

    /** The annotation's value when it is set and differs from the handled one; null otherwise. */
    static String pending(BackfillCampaign campaign, String annotation) {
        Map<String, String> a = campaign.getMetadata().getAnnotations();
        if (a == null) {
            return null;
        }
        String value = a.get(annotation);
        if (value == null || value.isBlank() || value.equals(a.get(annotation + DONE_SUFFIX))) {
            return null;
        }
        return value.length() > MAX_TOKEN ? value.substring(0, MAX_TOKEN) : value;
    }

    /** Records the handled token (a merge patch of one annotation on the resource's metadata). */
    static void markDone(KubernetesClient client, BackfillCampaign campaign, String annotation) {
        String value = campaign.getMetadata().getAnnotations().get(annotation);
        String patch = "{\"metadata\":{\"annotations\":{\"" + annotation + DONE_SUFFIX + "\":"
                + io.fabric8.kubernetes.client.utils.Serialization.asJson(value) + "}}}";
        client.resources(BackfillCampaign.class).inNamespace(campaign.getMetadata().getNamespace())
                .withName(campaign.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        campaign.getMetadata().getAnnotations().put(annotation + DONE_SUFFIX, value);
    }
}
