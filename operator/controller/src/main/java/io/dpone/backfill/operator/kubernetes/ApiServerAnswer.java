package io.dpone.backfill.operator.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * What the API server said when it refused or failed a call: its own words (the Status message, such as a quota's
 * "exceeded quota: ..."), not the client's "Failure executing: POST at: ..." wrapper, which is only the fallback
 * when no Status came back (a refused connection, a timeout).
 */
public final class ApiServerAnswer {
    private ApiServerAnswer() {
    }

    public static String message(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : String.valueOf(e.getMessage());
    }

    /** "HTTP 503: the server's words" (HTTP 0 when no response came back). */
    public static String describe(KubernetesClientException e) {
        return "HTTP " + e.getCode() + ": " + message(e);
    }
}
