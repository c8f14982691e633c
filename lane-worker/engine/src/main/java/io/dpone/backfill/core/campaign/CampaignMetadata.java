package io.dpone.backfill.core.campaign;

import java.util.LinkedHashMap;
import java.util.Map;

/** The subset of Kubernetes object metadata a campaign file may carry. */
public class CampaignMetadata {
    private String name;
    private String namespace;
    private Map<String, String> labels = new LinkedHashMap<>();
    private Map<String, String> annotations = new LinkedHashMap<>();

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getNamespace() {
        return namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    public Map<String, String> getLabels() {
        return labels;
    }

    public void setLabels(Map<String, String> labels) {
        this.labels = labels;
    }

    public Map<String, String> getAnnotations() {
        return annotations;
    }

    public void setAnnotations(Map<String, String> annotations) {
        this.annotations = annotations;
    }
}
