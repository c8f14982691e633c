package io.dpone.backfill.operator.support.admission;

import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules a real cluster applies to a pod create that apply to a lane pod, as two verdicts:
 * <ul>
 *     <li>{@link #apiServer}: kubernetes/kubernetes pkg/apis/core/validation/validation.go (ValidatePodCreate and
 *     what it calls): the name a DNS-1123 subdomain, labels (qualified keys, values of at most 63 characters),
 *     container and volume names DNS-1123 labels, every volume mount naming a volume and mount paths unique, env
 *     var names ({@code IsEnvVarName}), {@code secretKeyRef} name and key (a config key), resource quantities
 *     non-negative with every request at most its limit (ValidateResourceRequirements: "must be less than or
 *     equal to cpu limit of 1"), restart and pull policies, the service account name, node selector labels;</li>
 *     <li>{@link #restricted}: the Pod Security "restricted" profile (kubernetes/kubernetes
 *     staging/src/k8s.io/pod-security-admission/policy: check_runAsNonRoot.go, check_runAsUser.go,
 *     check_allowPrivilegeEscalation.go, check_capabilities_restricted.go, check_seccompProfile_restricted.go,
 *     check_restrictedVolumes.go, and the baseline checks it includes: privileged, host namespaces, host ports,
 *     hostPath volumes).</li>
 * </ul>
 */
public final class PodRules {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern QUALIFIED_NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
    private static final Pattern ENV_VAR_NAME = Pattern.compile("[-._a-zA-Z][-._a-zA-Z0-9]*");
    private static final Pattern CONFIG_KEY = Pattern.compile("[-._a-zA-Z0-9]+");
    private static final Set<String> RESTRICTED_VOLUMES = Set.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral",
            "persistentVolumeClaim", "projected", "secret");

    private PodRules() {
    }

    public static List<String> apiServer(Pod pod) {
        List<String> errors = new ArrayList<>();
        String name = pod.getMetadata().getName();
        if (name == null || name.length() > 253 || !DNS_SUBDOMAIN.matcher(name).matches()) {
            errors.add("metadata.name: Invalid value: \"" + name + "\": a lowercase RFC 1123 subdomain");
        }
        labels(pod.getMetadata().getLabels(), "metadata.labels", errors);
        var spec = pod.getSpec();
        labels(spec.getNodeSelector(), "spec.nodeSelector", errors);
        if (!Set.of("Always", "OnFailure", "Never").contains(String.valueOf(spec.getRestartPolicy()))) {
            errors.add("spec.restartPolicy: Unsupported value: " + spec.getRestartPolicy());
        }
        if (spec.getServiceAccountName() != null && (spec.getServiceAccountName().length() > 253
                || !DNS_SUBDOMAIN.matcher(spec.getServiceAccountName()).matches())) {
            errors.add("spec.serviceAccountName: Invalid value: \"" + spec.getServiceAccountName() + "\"");
        }
        if (spec.getTerminationGracePeriodSeconds() != null && spec.getTerminationGracePeriodSeconds() < 0) {
            errors.add("spec.terminationGracePeriodSeconds: must be greater than or equal to 0");
        }
        Set<String> volumes = new HashSet<>();
        for (Volume v : spec.getVolumes()) {
            if (!DNS_LABEL.matcher(v.getName()).matches() || v.getName().length() > 63) {
                errors.add("spec.volumes: Invalid value: \"" + v.getName() + "\": a lowercase RFC 1123 label");
            }
            if (!volumes.add(v.getName())) {
                errors.add("spec.volumes: Duplicate value: \"" + v.getName() + "\"");
            }
        }
        if (spec.getContainers().isEmpty()) {
            errors.add("spec.containers: Required value");
        }
        for (int i = 0; i < spec.getContainers().size(); i++) {
            container(spec.getContainers().get(i), "spec.containers[" + i + "]", volumes, errors);
        }
        return errors;
    }

    private static void container(Container c, String path, Set<String> volumes, List<String> errors) {
        if (c.getName() == null || c.getName().length() > 63 || !DNS_LABEL.matcher(c.getName()).matches()) {
            errors.add(path + ".name: Invalid value: \"" + c.getName() + "\": a lowercase RFC 1123 label");
        }
        if (c.getImage() == null || c.getImage().isBlank()) {
            errors.add(path + ".image: Required value");
        }
        if (c.getImagePullPolicy() != null && !Set.of("Always", "IfNotPresent", "Never").contains(c.getImagePullPolicy())) {
            errors.add(path + ".imagePullPolicy: Unsupported value: " + c.getImagePullPolicy());
        }
        Set<String> envNames = new HashSet<>();
        for (EnvVar e : c.getEnv()) {
            if (e.getName() == null || !ENV_VAR_NAME.matcher(e.getName()).matches()) {
                errors.add(path + ".env.name: Invalid value: \"" + e.getName() + "\": a valid environment variable name");
            }
            envNames.add(e.getName());
            if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null) {
                var ref = e.getValueFrom().getSecretKeyRef();
                if (ref.getName() == null || !DNS_SUBDOMAIN.matcher(ref.getName()).matches()) {
                    errors.add(path + ".env[" + e.getName() + "].valueFrom.secretKeyRef.name: Invalid value: \"" + ref.getName() + "\"");
                }
                if (ref.getKey() == null || ref.getKey().length() > 253 || !CONFIG_KEY.matcher(ref.getKey()).matches()) {
                    errors.add(path + ".env[" + e.getName() + "].valueFrom.secretKeyRef.key: Invalid value: \"" + ref.getKey() + "\"");
                }
            }
            if (e.getValue() != null && e.getValueFrom() != null) {
                errors.add(path + ".env[" + e.getName() + "].valueFrom: may not be specified when `value` is not empty");
            }
        }
        Set<String> mountPaths = new HashSet<>();
        for (VolumeMount m : c.getVolumeMounts()) {
            if (!volumes.contains(m.getName())) {
                errors.add(path + ".volumeMounts.name: Not found: \"" + m.getName() + "\"");
            }
            if (!mountPaths.add(m.getMountPath())) {
                errors.add(path + ".volumeMounts.mountPath: Invalid value: \"" + m.getMountPath() + "\": must be unique");
            }
        }
        if (c.getResources() != null) {
            Map<String, Quantity> requests = c.getResources().getRequests() == null ? Map.of() : c.getResources().getRequests();
            Map<String, Quantity> limits = c.getResources().getLimits() == null ? Map.of() : c.getResources().getLimits();
            requests.forEach((resource, q) -> {
                BigDecimal request = amount(q, path + ".resources.requests[" + resource + "]", errors);
                Quantity limitQ = limits.get(resource);
                BigDecimal limit = limitQ == null ? null : amount(limitQ, path + ".resources.limits[" + resource + "]", errors);
                if (request != null && limit != null && request.compareTo(limit) > 0) {
                    errors.add(path + ".resources.requests: Invalid value: \"" + q + "\": must be less than or equal to " + resource
                            + " limit of " + limitQ);
                }
            });
        }
    }

    private static BigDecimal amount(Quantity q, String path, List<String> errors) {
        try {
            BigDecimal value = Quantity.getAmountInBytes(q);
            if (value.signum() < 0) {
                errors.add(path + ": must be greater than or equal to 0");
            }
            return value;
        } catch (RuntimeException e) {
            errors.add(path + ": quantities must match the regular expression of a Kubernetes quantity: " + q);
            return null;
        }
    }

    private static void labels(Map<String, String> labels, String path, List<String> errors) {
        if (labels == null) {
            return;
        }
        labels.forEach((k, v) -> {
            String key = k.contains("/") ? k.substring(k.indexOf('/') + 1) : k;
            String prefix = k.contains("/") ? k.substring(0, k.indexOf('/')) : null;
            if (key.length() > 63 || !QUALIFIED_NAME.matcher(key).matches()
                    || prefix != null && (prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches())) {
                errors.add(path + ": Invalid value: \"" + k + "\": a qualified name");
            }
            if (v == null || v.length() > 63 || !LABEL_VALUE.matcher(v).matches()) {
                errors.add(path + "[" + k + "]: Invalid value: \"" + v + "\": a valid label value");
            }
        });
    }

    public static List<String> restricted(Pod pod) {
        List<String> errors = new ArrayList<>();
        var spec = pod.getSpec();
        PodSecurityContext podSc = spec.getSecurityContext();
        if (Boolean.TRUE.equals(spec.getHostNetwork()) || Boolean.TRUE.equals(spec.getHostPID()) || Boolean.TRUE.equals(spec.getHostIPC())) {
            errors.add("host namespaces (hostNetwork, hostPID, hostIPC)");
        }
        for (Volume v : spec.getVolumes()) {
            if (v.getHostPath() != null) {
                errors.add("hostPath volume " + v.getName());
            }
            if (RESTRICTED_VOLUMES.stream().noneMatch(type -> hasVolumeType(v, type))) {
                errors.add("restricted volume types: volume " + v.getName() + " uses a type outside " + RESTRICTED_VOLUMES);
            }
        }
        boolean podNonRoot = podSc != null && Boolean.TRUE.equals(podSc.getRunAsNonRoot());
        boolean podSeccomp = podSc != null && podSc.getSeccompProfile() != null
                && Set.of("RuntimeDefault", "Localhost").contains(podSc.getSeccompProfile().getType());
        if (podSc != null && podSc.getRunAsUser() != null && podSc.getRunAsUser() == 0) {
            errors.add("runAsUser=0 (pod)");
        }
        for (Container c : spec.getContainers()) {
            SecurityContext sc = c.getSecurityContext();
            if (sc != null && Boolean.TRUE.equals(sc.getPrivileged())) {
                errors.add("privileged container " + c.getName());
            }
            if (c.getPorts() != null && c.getPorts().stream().anyMatch(p -> p.getHostPort() != null && p.getHostPort() != 0)) {
                errors.add("hostPort in container " + c.getName());
            }
            boolean nonRoot = sc != null && sc.getRunAsNonRoot() != null ? sc.getRunAsNonRoot() : podNonRoot;
            if (!nonRoot) {
                errors.add("runAsNonRoot != true (container " + c.getName() + ")");
            }
            if (sc != null && sc.getRunAsUser() != null && sc.getRunAsUser() == 0) {
                errors.add("runAsUser=0 (container " + c.getName() + ")");
            }
            if (sc == null || !Boolean.FALSE.equals(sc.getAllowPrivilegeEscalation())) {
                errors.add("allowPrivilegeEscalation != false (container " + c.getName() + ")");
            }
            Capabilities caps = sc == null ? null : sc.getCapabilities();
            if (caps == null || caps.getDrop() == null || !caps.getDrop().contains("ALL")) {
                errors.add("unrestricted capabilities: container " + c.getName() + " must drop ALL");
            }
            if (caps != null && caps.getAdd() != null && caps.getAdd().stream().anyMatch(a -> !a.equals("NET_BIND_SERVICE"))) {
                errors.add("unrestricted capabilities: container " + c.getName() + " adds " + caps.getAdd());
            }
            boolean seccomp = sc != null && sc.getSeccompProfile() != null
                    ? Set.of("RuntimeDefault", "Localhost").contains(sc.getSeccompProfile().getType()) : podSeccomp;
            if (!seccomp) {
                errors.add("seccompProfile: container " + c.getName() + " must use RuntimeDefault or Localhost");
            }
        }
        return errors;
    }

    private static boolean hasVolumeType(Volume v, String type) {
        return switch (type) {
            case "configMap" -> v.getConfigMap() != null;
            case "csi" -> v.getCsi() != null;
            case "downwardAPI" -> v.getDownwardAPI() != null;
            case "emptyDir" -> v.getEmptyDir() != null;
            case "ephemeral" -> v.getEphemeral() != null;
            case "persistentVolumeClaim" -> v.getPersistentVolumeClaim() != null;
            case "projected" -> v.getProjected() != null;
            case "secret" -> v.getSecret() != null;
            default -> false;
        };
    }
}
