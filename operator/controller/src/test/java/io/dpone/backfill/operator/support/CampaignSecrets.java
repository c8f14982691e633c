package io.dpone.backfill.operator.support;

import io.dpone.backfill.operator.driver.SecretResolver;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** A connection Secret as a user creates one for campaigns: base64 data, labelled for campaign use (ADR 0045). */
public final class CampaignSecrets {
    private CampaignSecrets() {
    }

    public static Secret of(String namespace, String name, Map<String, String> data) {
        Map<String, String> encoded = new LinkedHashMap<>();
        data.forEach((k, v) -> encoded.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
        return new SecretBuilder().withNewMetadata().withName(name).withNamespace(namespace)
                .addToLabels(SecretResolver.CAMPAIGN_USE_LABEL, "true").endMetadata().withData(encoded).build();
    }
}
