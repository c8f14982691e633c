package io.dpone.backfill.operator.support.rbac;

import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One HTTP request to the API server as its authorizer sees it: the port of kubernetes/kubernetes
 * staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go (RequestInfoFactory.NewRequestInfo). POST = create,
 * PUT = update, PATCH = patch, DELETE of one object = delete, of a collection = deletecollection, GET of one object =
 * get, of a collection = list, or watch when the query has {@code watch} other than "false"/"0". Paths outside
 * /api and /apis are non-resource requests whose verb is the lower-cased method.
 *
 * @param resource    plural resource, without the subresource; empty for a non-resource request
 * @param namespace   empty for a cluster-scoped request (or a cross-namespace list/watch)
 */
public record ApiRequest(String method, String path, boolean resourceRequest, String verb, String apiGroup, String resource,
                         String subresource, String namespace, String name) {
    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    public static ApiRequest of(String method, String uri) {
        URI u = URI.create(uri);
        String path = u.getRawPath();
        String m = method.toUpperCase(Locale.ROOT);
        List<String> parts = Arrays.stream(path.replaceAll("^/+|/+$", "").split("/")).filter(p -> !p.isEmpty()).toList();
        if (parts.size() < 3 || !(parts.get(0).equals("api") || parts.get(0).equals("apis"))) {
            return new ApiRequest(m, path, false, m.toLowerCase(Locale.ROOT), "", "", "", "", "");
        }
        boolean groupless = parts.get(0).equals("api");
        List<String> rest = parts.subList(1, parts.size());
        String group = "";
        if (!groupless) {
            if (rest.size() < 3) {
                return new ApiRequest(m, path, false, m.toLowerCase(Locale.ROOT), "", "", "", "", "");
            }
            group = rest.get(0);
            rest = rest.subList(1, rest.size());
        }
        rest = rest.subList(1, rest.size()); // the version
        String verb = switch (m) {
            case "POST" -> "create";
            case "GET", "HEAD" -> "get";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> "delete";
            default -> "";
        };
        if (rest.get(0).equals("watch") && rest.size() > 1) { // the legacy /watch/ prefix
            verb = "watch";
            rest = rest.subList(1, rest.size());
        }
        String namespace = "";
        if (rest.get(0).equals("namespaces") && rest.size() > 1) {
            namespace = rest.get(1);
            if (rest.size() > 2 && !NAMESPACE_SUBRESOURCES.contains(rest.get(2))) {
                rest = rest.subList(2, rest.size());
            }
        }
        String resource = rest.get(0);
        String name = rest.size() >= 2 ? rest.get(1) : "";
        String subresource = rest.size() >= 3 ? rest.get(2) : "";
        if (name.isEmpty() && verb.equals("get")) {
            String watch = queryValue(u.getRawQuery(), "watch");
            verb = watch == null || watch.equalsIgnoreCase("false") || watch.equals("0") ? "list" : "watch";
        }
        if (name.isEmpty() && verb.equals("delete")) {
            verb = "deletecollection";
        }
        return new ApiRequest(m, path, true, verb, group, resource, subresource, namespace, name);
    }

    private static String queryValue(String query, String key) {
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            if (k.equals(key)) {
                return eq < 0 ? "" : pair.substring(eq + 1);
            }
        }
        return null;
    }

    /** {@code resource/subresource}, the form RBAC rules name it in. */
    public String combinedResource() {
        return subresource.isEmpty() ? resource : resource + "/" + subresource;
    }

    /** The same request as if made in another namespace. */
    public ApiRequest inNamespace(String ns) {
        return new ApiRequest(method, path, resourceRequest, verb, apiGroup, resource, subresource, ns, name);
    }

    @Override
    public String toString() {
        return resourceRequest
                ? verb + " " + (apiGroup.isEmpty() ? "core" : apiGroup) + "/" + combinedResource() + (namespace.isEmpty() ? " (cluster scope)" : " in " + namespace)
                + " [" + method + " " + path + "]"
                : verb + " non-resource " + path;
    }
}
