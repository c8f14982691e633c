package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** A campaign file: the same document a user would {@code kubectl apply}. */
@JsonPropertyOrder({"apiVersion", "kind", "metadata", "spec"})
public class CampaignDocument {
    public static final String API_VERSION = "backfill.dpone.io/v1alpha1";
    public static final String KIND = "BackfillCampaign";

    private String apiVersion;
    private String kind;
    private CampaignMetadata metadata;
    private BackfillCampaignSpec spec;

    public String getApiVersion() {
        return apiVersion;
    }

    public void setApiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    public CampaignMetadata getMetadata() {
        return metadata;
    }

    public void setMetadata(CampaignMetadata metadata) {
        this.metadata = metadata;
    }

    public BackfillCampaignSpec getSpec() {
        return spec;
    }

    public void setSpec(BackfillCampaignSpec spec) {
        this.spec = spec;
    }
}
