package io.dpone.backfill.operator.lanes;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.ImagePullPolicy;
import io.dpone.backfill.core.campaign.LaneResources;
import io.dpone.backfill.core.campaign.LaneSpec;
import io.dpone.backfill.core.campaign.ResourceAmounts;
import io.dpone.backfill.core.validation.Quantities;
import io.dpone.backfill.operator.config.OperatorSettings;
import io.dpone.backfill.operator.resource.BackfillCampaign;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Builds one lane pod: {@code backfill lane} with the lane index and run key as arguments, connection settings only
 * through {@code secretKeyRef}, no service account token (a lane never talks to Kubernetes), non-root with a
 * read-only root filesystem (a writable {@code /tmp} for the JVM), owned by the campaign, and never restarted in
 * place: a failed lane is replaced by the operator, which counts it against the campaign's budget.
 */
public final class LanePodFactory {
    public static final String CONTAINER = "lane";

    private final OperatorSettings settings;
    private final LaneImages images;

    public LanePodFactory(OperatorSettings settings) {
        this.settings = settings;
        this.images = new LaneImages(settings.lanes());
    }

    public Pod build(BackfillCampaign campaign, BackfillCampaignSpec normalised, String runKey, int lane, int attempt,
                     ConnectionSecret source, ConnectionSecret target) {
        OperatorSettings.LaneDefaults defaults = settings.lanes();
        LaneSpec laneSpec = normalised.getLane() == null ? new LaneSpec() : normalised.getLane();
        String name = campaign.getMetadata().getName();
        List<String> args = List.of("lane", "--run-key", runKey, "--lane", Integer.toString(lane),
                "--state-schema", normalised.getState().getSchema(), "--target-type", normalised.getTarget().getType().wireName());
        return new PodBuilder()
                .withNewMetadata()
                .withName(LaneLabels.podName(name, lane, attempt))
                .withNamespace(campaign.getMetadata().getNamespace())
                .withLabels(LaneLabels.of(name, runKey, lane, attempt))
                .withOwnerReferences(new OwnerReferenceBuilder()
                        .withApiVersion(campaign.getApiVersion()).withKind(campaign.getKind())
                        .withName(name).withUid(campaign.getMetadata().getUid())
                        .withController(true).withBlockOwnerDeletion(true).build())
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .withAutomountServiceAccountToken(false)
                .withServiceAccountName(defaults.serviceAccountName())
                .withNodeSelector(laneSpec.getNodeSelector() == null || laneSpec.getNodeSelector().isEmpty() ? null
                        : new LinkedHashMap<>(laneSpec.getNodeSelector()))
                .withTerminationGracePeriodSeconds(Math.max(30L, settings.timings().drainTimeout().toSeconds()))
                .withNewSecurityContext()
                .withRunAsNonRoot(true).withRunAsUser(defaults.runAsUser()).withRunAsGroup(defaults.runAsUser())
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                .endSecurityContext()
                .addNewContainer()
                .withName(CONTAINER)
                .withImage(images.require(laneSpec.getImage() != null ? laneSpec.getImage() : defaults.image()))
                .withImagePullPolicy(laneSpec.getImagePullPolicy() != null ? pullPolicy(laneSpec.getImagePullPolicy())
                        : defaults.imagePullPolicy())
                .withCommand(defaults.command())
                .withArgs(args)
                .withEnv(environment(source, target))
                .withResources(resources(laneSpec.getResources(), defaults))
                .withNewSecurityContext()
                .withReadOnlyRootFilesystem(true).withAllowPrivilegeEscalation(false).withRunAsNonRoot(true)
                .withNewCapabilities().withDrop("ALL").endCapabilities()
                .endSecurityContext()
                .addNewVolumeMount().withName("tmp").withMountPath("/tmp").endVolumeMount()
                .endContainer()
                .addNewVolume().withName("tmp").withNewEmptyDir().endEmptyDir().endVolume()
                .endSpec()
                .build();
    }

    private List<EnvVar> environment(ConnectionSecret source, ConnectionSecret target) {
        List<EnvVar> env = new ArrayList<>(source.environment("SOURCE"));
        env.addAll(target.environment("TARGET"));
        settings.laneEnvironment().forEach((k, v) -> env.add(new EnvVarBuilder().withName(k).withValue(v).build()));
        return env;
    }

    static String pullPolicy(ImagePullPolicy policy) {
        return switch (policy) {
            case ALWAYS -> "Always";
            case IF_NOT_PRESENT -> "IfNotPresent";
            case NEVER -> "Never";
        };
    }

    /**
     * Requests and limits, each from the spec or else from the operator's defaults, made coherent the way the API
     * server demands (a request at most its limit: kubernetes/kubernetes pkg/apis/core/validation/validation.go,
     * ValidateResourceRequirements). Only a defaulted value moves: a limit given below the default request lowers
     * the request to it; a request given above the default limit raises the limit to it. Both given and
     * incoherent is refused by validation first, naming the field.
     */
    static ResourceRequirements resources(LaneResources given, OperatorSettings.LaneDefaults defaults) {
        ResourceAmounts requests = given == null ? null : given.getRequests();
        ResourceAmounts limits = given == null ? null : given.getLimits();
        Map<String, Quantity> req = new LinkedHashMap<>();
        Map<String, Quantity> lim = new LinkedHashMap<>();
        Map<String, Function<ResourceAmounts, String>> resources = new LinkedHashMap<>();
        resources.put("cpu", ResourceAmounts::getCpu);
        resources.put("memory", ResourceAmounts::getMemory);
        resources.forEach((resource, amount) -> coherent(resource, of(requests, amount), of(defaults.requests(), amount),
                of(limits, amount), of(defaults.limits(), amount), req, lim));
        return new ResourceRequirementsBuilder().withRequests(req).withLimits(lim).build();
    }

    private static String of(ResourceAmounts amounts, Function<ResourceAmounts, String> amount) {
        return amounts == null ? null : amount.apply(amounts);
    }

    private static void coherent(String resource, String givenRequest, String defaultRequest, String givenLimit, String defaultLimit,
                                 Map<String, Quantity> requests, Map<String, Quantity> limits) {
        String request = givenRequest != null ? givenRequest : defaultRequest;
        String limit = givenLimit != null ? givenLimit : defaultLimit;
        if (Quantities.exceeds(request, limit)) {
            if (givenRequest != null && givenLimit == null) {
                limit = request;
            } else {
                request = limit;
            }
        }
        if (request != null) {
            requests.put(resource, new Quantity(request));
        }
        if (limit != null) {
            limits.put(resource, new Quantity(limit));
        }
    }
}
