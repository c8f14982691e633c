package io.dpone.backfill.cli.kubectl;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The declarative requests the operator reads, as JSON merge patches: {@code spec.suspend}, and the action
 * annotations whose value is a token the operator handles once (it records the handled token in
 * {@code <annotation>-done}), so re-applying the same request is a no-op. The names are the operator's
 * ({@code OperatorActions}); the operator's KubectlPluginActionsIT proves the operator reads these patches.
 */
public final class CampaignActions {
    static final String REQUEUE_FAILED = "backfill.dpone.io/requeue-failed";
    static final String ROLLBACK = "backfill.dpone.io/rollback";
    static final String APPROVE = "backfill.dpone.io/approve";
    static final String DONE_SUFFIX = "-done";
    private static final ObjectMapper JSON = new ObjectMapper();

    private CampaignActions() {
    }

    static String suspend(boolean suspend) {
        ObjectNode patch = JSON.createObjectNode();
        patch.putObject("spec").put("suspend", suspend);
        return patch.toString();
    }

    static String annotate(String annotation, String token) {
        ObjectNode patch = JSON.createObjectNode();
        patch.putObject("metadata").putObject("annotations").put(annotation, token);
        return patch.toString();
    }
}
