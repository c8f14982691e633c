package io.dpone.backfill.crds;

import io.dpone.backfill.testsupport.RepositoryRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Every Kubernetes API request the operator makes, listed once from its code: its own Fabric8 calls (which
 * {@link #scanOperatorSources()} re-finds in operator/controller/src/main/java, so the list cannot fall behind the code), and
 * the ones JOSDK makes for it. The chart's RBAC must grant exactly these (HelmChartTest).
 */
final class OperatorApiCalls {
    /** One verb on one resource ({@code group/resource}, core group empty), and who asks for it. */
    record Call(String resource, String verb, boolean ours, String by) {
    }

    /** Where campaigns live (a ClusterRole, or a Role in each watched namespace). */
    static final List<Call> CAMPAIGN_NAMESPACES = List.of(
            new Call("backfill.dpone.io/backfillcampaigns", "list", false, "JOSDK informer of the primary resource"),
            new Call("backfill.dpone.io/backfillcampaigns", "watch", false, "JOSDK informer of the primary resource"),
            new Call("backfill.dpone.io/backfillcampaigns", "get", false,
                    "JOSDK re-reads the resource when a finalizer patch conflicts (ResourceOperations.conflictRetryingPatchPrimary)"),
            new Call("backfill.dpone.io/backfillcampaigns", "patch", true, "OperatorActions: handled-action annotations (JSON merge)"),
            new Call("backfill.dpone.io/backfillcampaigns", "patch", false, "JOSDK addFinalizer/removeFinalizer (JSON patch or SSA)"),
            new Call("backfill.dpone.io/backfillcampaigns/status", "patch", true, "StatusWriter: JSON patch of /status"),
            new Call("backfill.dpone.io/backfillcampaigns/finalizers", "update", false,
                    "no request: the OwnerReferencesPermissionEnforcement admission plugin requires it to create lane pods whose "
                            + "owner reference sets blockOwnerDeletion (LanePodFactory)"),
            new Call("/pods", "list", false, "JOSDK InformerEventSource<Pod> (BackfillCampaignReconciler.prepareEventSources)"),
            new Call("/pods", "watch", false, "JOSDK InformerEventSource<Pod>"),
            new Call("/pods", "create", true, "LaneSupervisor.create"),
            new Call("/pods", "delete", true, "LaneSupervisor.delete"),
            new Call("/events", "create", true, "CampaignEvents.emit"),
            new Call("/secrets", "get", true, "SecretResolver: the campaign's two Secrets, by name; never listed or watched"));

    /** In the operator's own namespace. */
    static final List<Call> OWN_NAMESPACE = List.of(
            new Call("coordination.k8s.io/leases", "get", false,
                    "Fabric8 LeaderElector.tryAcquireOrRenew -> ResourceLock.get (GET of the named Lease)"),
            new Call("coordination.k8s.io/leases", "create", false, "Fabric8 ResourceLock.create (POST) when the Lease is missing"),
            // fabric8io/kubernetes-client 7.5.2, kubernetes-client-api .../leaderelection/resourcelock/ResourceLock.update:
            // client.resource(...).patch(PatchContext.of(PatchType.JSON_MERGE)), an HTTP PATCH, which the API server
            // authorizes as the verb patch (apiserver/pkg/endpoints/request/requestinfo.go: case "PATCH" -> "patch").
            new Call("coordination.k8s.io/leases", "patch", false,
                    "Fabric8 ResourceLock.update: renew, take over and release on stop (JSON merge PATCH)"),
            // No request uses update, but JOSDK 5.3.2 LeaderElectionManager.checkLeaseAccess creates a
            // SelfSubjectRulesReview and refuses to start unless the lease rules hold create, update and get.
            new Call("coordination.k8s.io/leases", "update", false,
                    "no request: JOSDK LeaderElectionManager.checkLeaseAccess requires create, update, get before it starts"));

    private OperatorApiCalls() {
    }

    /** {@code group/resource:verb,verb} sorted, the form HelmChartTest flattens rendered rules into. */
    static Set<String> rules(List<Call> calls) {
        Map<String, Set<String>> byResource = new TreeMap<>();
        calls.forEach(c -> byResource.computeIfAbsent(c.resource(), k -> new TreeSet<>()).add(c.verb()));
        Set<String> out = new TreeSet<>();
        byResource.forEach((r, verbs) -> out.add(r + ":" + String.join(",", verbs)));
        return out;
    }

    /** A call on a variable named {@code client} (not the package {@code io.fabric8.kubernetes.client}). */
    private static final Pattern CLIENT = Pattern.compile("(?<![\\w.])client\\s*\\.");
    private static final Pattern VERB = Pattern.compile(
            "\\.(create|delete|get|list|watch|patch|update|edit|replace|serverSideApply|createOr\\w*|createOrReplace)\\(");

    /**
     * The operator's own calls, found in its sources: every statement on a {@code client.} names one resource (by its
     * Fabric8 DSL entry point) and ends in one verb. A statement this cannot classify fails the scan.
     */
    static Set<String> scanOperatorSources() throws IOException {
        Set<String> found = new TreeSet<>();
        List<String> unclassified = new ArrayList<>();
        try (Stream<Path> files = Files.walk(RepositoryRoot.resolve("operator", "controller", "src", "main", "java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String code = Files.readString(file).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
                for (String statement : code.split(";")) {
                    if (!CLIENT.matcher(statement).find()) {
                        continue;
                    }
                    String s = statement.replaceAll("\\s+", "");
                    String resource = s.contains("client.pods()") ? "/pods"
                            : s.contains("client.secrets()") ? "/secrets"
                            : s.contains("client.v1().events()") || s.contains("client.events()") ? "/events"
                            : s.contains("client.resources(BackfillCampaign.class)")
                            ? (s.contains(".subresource(\"status\")") ? "backfill.dpone.io/backfillcampaigns/status" : "backfill.dpone.io/backfillcampaigns")
                            : null;
                    Matcher m = VERB.matcher(s);
                    String verb = null;
                    while (m.find()) {
                        verb = m.group(1);
                    }
                    if (resource == null || verb == null) {
                        unclassified.add(file.getFileName() + ": " + s);
                    } else {
                        found.add(resource + ":" + verb);
                    }
                }
            }
        }
        if (!unclassified.isEmpty()) {
            throw new IllegalStateException("Kubernetes calls not classified (add the resource or verb here): " + unclassified);
        }
        return found;
    }
}
