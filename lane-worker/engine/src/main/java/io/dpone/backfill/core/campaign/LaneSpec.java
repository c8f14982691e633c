package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.dpone.backfill.core.campaign.rule.Max;
import io.dpone.backfill.core.campaign.rule.Min;
import io.dpone.backfill.core.campaign.rule.Size;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Lane pod settings. These shape how lanes run, not what they load, so they stay outside the config digest
 * and may change on a running campaign (the operator applies them to pods it creates afterwards).
 */
public class LaneSpec {
    public static final int MAX_POD_FAILURES = 100;
    public static final int DEFAULT_MAX_POD_FAILURES = 3;

    @Size(min = 1, max = 512)
    @JsonPropertyDescription("Lane container image (default: the operator's configured lane image).")
    private String image;
    @JsonPropertyDescription("Always, IfNotPresent or Never.")
    private ImagePullPolicy imagePullPolicy;
    @JsonPropertyDescription("CPU/memory requests and limits of each lane pod.")
    private LaneResources resources;
    @JsonPropertyDescription("Node selector for lane pods.")
    private Map<String, String> nodeSelector;
    @Min(0)
    @Max(MAX_POD_FAILURES)
    @JsonPropertyDescription("Lane pod failures replaced before the campaign turns Recoverable (default 3).")
    private Integer maxPodFailures;

    public String getImage() {
        return image;
    }

    public void setImage(String image) {
        this.image = image;
    }

    public ImagePullPolicy getImagePullPolicy() {
        return imagePullPolicy;
    }

    public void setImagePullPolicy(ImagePullPolicy imagePullPolicy) {
        this.imagePullPolicy = imagePullPolicy;
    }

    public LaneResources getResources() {
        return resources;
    }

    public void setResources(LaneResources resources) {
        this.resources = resources;
    }

    public Map<String, String> getNodeSelector() {
        return nodeSelector;
    }

    public void setNodeSelector(Map<String, String> nodeSelector) {
        this.nodeSelector = nodeSelector;
    }

    public Integer getMaxPodFailures() {
        return maxPodFailures;
    }

    public void setMaxPodFailures(Integer maxPodFailures) {
        this.maxPodFailures = maxPodFailures;
    }

    LaneSpec copy() {
        LaneSpec c = new LaneSpec();
        c.image = image;
        c.imagePullPolicy = imagePullPolicy;
        c.resources = resources == null ? null : resources.copy();
        c.nodeSelector = nodeSelector == null ? null : new LinkedHashMap<>(nodeSelector);
        c.maxPodFailures = maxPodFailures;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LaneSpec l && Objects.equals(image, l.image) && imagePullPolicy == l.imagePullPolicy
                && Objects.equals(resources, l.resources) && Objects.equals(nodeSelector, l.nodeSelector)
                && Objects.equals(maxPodFailures, l.maxPodFailures);
    }

    @Override
    public int hashCode() {
        return Objects.hash(image, imagePullPolicy, resources, nodeSelector, maxPodFailures);
    }
}
