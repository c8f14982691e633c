package io.dpone.backfill.operator.support.rbac;

import io.dpone.backfill.testsupport.RepositoryRoot;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The RBAC the Helm chart in helm/backfill-operator grants the operator's ServiceAccount, rendered with helm-java for
 * the defaults and every values file in the chart's ci/ directory, and evaluated the way the API server's RBAC
 * authorizer does (kubernetes/kubernetes plugin/pkg/auth/authorizer/rbac/rbac.go with the matchers of
 * pkg/apis/rbac/v1/evaluation_helpers.go: a verb, API group or resource "*" matches all, "*&#47;sub" matches any
 * resource's subresource, resourceNames restrict by name; a ClusterRoleBinding's rules hold in every namespace and at
 * cluster scope, a RoleBinding's only in its namespace). Every authenticated user also holds the bootstrap roles
 * system:basic-user (create self subject access/rules reviews) and system:discovery (GET of /api, /apis, /version
 * and below): plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go.
 */
public final class ChartRbac {
    public static final Path CHART = RepositoryRoot.resolve("helm", "backfill-operator");
    /** The namespace the chart is installed in for the check; leader election Leases are taken there. */
    public static final String RELEASE_NAMESPACE = "backfill-system";
    private static final String ALL_NAMESPACES = "JOSDK_ALL_NAMESPACES";

    private static final List<PolicyRule> EVERY_AUTHENTICATED_USER = List.of(
            new PolicyRuleBuilder().withApiGroups("authorization.k8s.io").withResources("selfsubjectaccessreviews", "selfsubjectrulesreviews")
                    .withVerbs("create").build(),
            new PolicyRuleBuilder().withNonResourceURLs("/api", "/api/*", "/apis", "/apis/*", "/version", "/version/", "/healthz", "/livez", "/readyz")
                    .withVerbs("get").build());

    private static volatile Map<String, ChartRbac> renderings;

    /** One rendering (values set) of the chart. */
    private final String values;
    private final List<PolicyRule> clusterWide = new ArrayList<>(EVERY_AUTHENTICATED_USER);
    private final Map<String, List<PolicyRule>> byNamespace = new HashMap<>();
    private final List<String> watched = new ArrayList<>();

    ChartRbac(String values, String manifests) {
        this.values = values;
        KubernetesSerialization yaml = new KubernetesSerialization();
        List<Object> docs = new ArrayList<>();
        for (String doc : manifests.split("(?m)^---\\s*$")) {
            if (doc.lines().anyMatch(l -> l.startsWith("kind:"))) {
                docs.add(yaml.unmarshal(doc));
            }
        }
        Map<String, List<PolicyRule>> clusterRoles = new HashMap<>();
        Map<String, List<PolicyRule>> roles = new HashMap<>();
        String account = null;
        for (Object d : docs) {
            if (d instanceof ClusterRole r) {
                clusterRoles.put(r.getMetadata().getName(), r.getRules());
            } else if (d instanceof Role r) {
                roles.put(r.getMetadata().getNamespace() + "/" + r.getMetadata().getName(), r.getRules());
            } else if (d instanceof Deployment dep) {
                var pod = dep.getSpec().getTemplate().getSpec();
                account = pod.getServiceAccountName() + "@" + dep.getMetadata().getNamespace();
                for (EnvVar e : pod.getContainers().get(0).getEnv()) {
                    if (e.getName().equals("QUARKUS_OPERATOR_SDK_NAMESPACES") && !e.getValue().equals(ALL_NAMESPACES)) {
                        watched.addAll(List.of(e.getValue().split(",")));
                    }
                }
            }
        }
        if (account == null) {
            throw new IllegalStateException(values + ": the chart rendered no operator Deployment");
        }
        for (Object d : docs) {
            if (d instanceof ClusterRoleBinding b && names(b.getSubjects(), account)) {
                clusterWide.addAll(clusterRoles.getOrDefault(b.getRoleRef().getName(), List.of()));
            } else if (d instanceof RoleBinding b && names(b.getSubjects(), account)) {
                String ns = b.getMetadata().getNamespace();
                List<PolicyRule> rules = b.getRoleRef().getKind().equals("ClusterRole") ? clusterRoles.get(b.getRoleRef().getName())
                        : roles.get(ns + "/" + b.getRoleRef().getName());
                byNamespace.computeIfAbsent(ns, k -> new ArrayList<>()).addAll(rules == null ? List.of() : rules);
            }
        }
    }

    private static boolean names(List<Subject> subjects, String account) {
        return subjects != null && subjects.stream().anyMatch(s -> "ServiceAccount".equals(s.getKind())
                && account.equals(s.getName() + "@" + s.getNamespace()));
    }

    /** The chart rendered with its defaults and with each of ci/*.yaml, installed in {@link #RELEASE_NAMESPACE}. */
    public static Map<String, ChartRbac> renderings() {
        if (renderings == null) {
            synchronized (ChartRbac.class) {
                if (renderings == null) {
                    Map<String, ChartRbac> out = new LinkedHashMap<>();
                    out.put("defaults", render("defaults", t -> t));
                    for (String v : List.of("cluster-wide-values.yaml", "namespaced-values.yaml", "ha-monitoring-values.yaml")) {
                        out.put(v, render(v, t -> t.withValuesFile(CHART.resolve("ci").resolve(v))));
                    }
                    renderings = out;
                }
            }
        }
        return renderings;
    }

    /** Renders the chart with some values; for tests of this evaluator itself. */
    public static ChartRbac render(String label, UnaryOperator<TemplateCommand> values) {
        return new ChartRbac(label, values.apply(new Helm(CHART).template().withName("bf").withNamespace(RELEASE_NAMESPACE)).call());
    }

    /** Whether the operator's ServiceAccount may make this request. */
    public boolean allows(ApiRequest r) {
        if (!r.resourceRequest()) {
            return clusterWide.stream().anyMatch(rule -> verb(rule, r.verb()) && url(rule, r.path()));
        }
        List<PolicyRule> rules = new ArrayList<>(clusterWide);
        rules.addAll(byNamespace.getOrDefault(r.namespace(), List.of()));
        return rules.stream().anyMatch(rule -> rule.getNonResourceURLs().isEmpty() && verb(rule, r.verb()) && group(rule, r.apiGroup())
                && resource(rule, r) && (rule.getResourceNames().isEmpty() || rule.getResourceNames().contains(r.name())));
    }

    /**
     * The requests the operator made in a test that this rendering would refuse. Requests in the test's campaign
     * namespace are checked in every namespace this rendering watches (where it watches all, as they are); the rest
     * (the Lease in {@link #RELEASE_NAMESPACE}, cluster-scoped calls) as they are.
     */
    public List<String> refused(List<ApiRequest> requests, String campaignNamespace) {
        List<String> out = new ArrayList<>();
        for (ApiRequest r : requests) {
            List<ApiRequest> asChecked = r.namespace().equals(campaignNamespace) && !watched.isEmpty()
                    ? watched.stream().map(r::inNamespace).toList() : List.of(r);
            for (ApiRequest c : asChecked) {
                if (!allows(c)) {
                    out.add(values + ": " + c);
                }
            }
        }
        return out.stream().distinct().toList();
    }

    /** Every rule that holds in a namespace: what a SelfSubjectRulesReview of the operator's account there answers. */
    public List<PolicyRule> rulesIn(String namespace) {
        List<PolicyRule> rules = new ArrayList<>(clusterWide);
        rules.addAll(byNamespace.getOrDefault(namespace, List.of()));
        return rules;
    }

    private static boolean verb(PolicyRule rule, String verb) {
        return rule.getVerbs().contains("*") || rule.getVerbs().contains(verb);
    }

    private static boolean group(PolicyRule rule, String group) {
        return rule.getApiGroups().contains("*") || rule.getApiGroups().contains(group);
    }

    private static boolean resource(PolicyRule rule, ApiRequest r) {
        for (String res : rule.getResources()) {
            if (res.equals("*") || res.equals(r.combinedResource())
                    || (!r.subresource().isEmpty() && res.equals("*/" + r.subresource()))) {
                return true;
            }
        }
        return false;
    }

    private static boolean url(PolicyRule rule, String path) {
        for (String u : rule.getNonResourceURLs()) {
            if (u.equals("*") || u.equals(path) || (u.endsWith("*") && path.startsWith(u.substring(0, u.length() - 1)))) {
                return true;
            }
        }
        return false;
    }
}
