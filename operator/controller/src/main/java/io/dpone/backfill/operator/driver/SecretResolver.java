package io.dpone.backfill.operator.driver;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.connect.DatabaseEndpoint;
import io.dpone.backfill.connect.SecretConnection;
import io.dpone.backfill.operator.lanes.ConnectionSecret;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a connection Secret from the campaign's namespace (GET only; no Secret is ever listed or watched): the
 * settings the operator connects with, and which keys lane pods may reference. Values never leave this class
 * except inside {@link ConnectionSettings}, whose {@code toString} leaves the password out. A Secret is used only when
 * it carries {@value #CAMPAIGN_USE_LABEL}{@code =true}: whoever may label it may read it, so a campaign's author
 * cannot have the operator connect with credentials nobody meant for campaigns (ADR 0045).
 */
public final class SecretResolver {
    public static final String CAMPAIGN_USE_LABEL = "backfill.dpone.io/campaign-use";

    public record Resolved(ConnectionSettings settings, ConnectionSecret secret) {
    }

    public Resolved resolve(KubernetesClient client, String namespace, String name, DatabaseEndpoint endpoint) {
        Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
        if (secret == null) {
            throw new SecretUnavailableException("SecretNotFound", "Secret " + namespace + "/" + name
                    + " does not exist: create it with the keys jdbcUrl (or host, port, database), user and password");
        }
        Map<String, String> labels = secret.getMetadata().getLabels();
        if (labels == null || !"true".equals(labels.get(CAMPAIGN_USE_LABEL))) {
            throw new SecretUnavailableException("SecretNotOptedIn", "Secret " + namespace + "/" + name + " is not labelled "
                    + CAMPAIGN_USE_LABEL + "=true, so no campaign may use it and none of its values was used. If it is meant for"
                    + " campaigns, whoever owns it labels it: kubectl label secret -n " + namespace + " " + name + " "
                    + CAMPAIGN_USE_LABEL + "=true");
        }
        Map<String, String> data = new HashMap<>();
        if (secret.getData() != null) {
            secret.getData().forEach((k, v) -> data.put(k, v == null ? null : new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
        }
        if (secret.getStringData() != null) {
            data.putAll(secret.getStringData());
        }
        try {
            ConnectionSettings settings = SecretConnection.settings(name, data, endpoint);
            return new Resolved(settings, new ConnectionSecret(name, data.keySet(), endpoint));
        } catch (IllegalArgumentException e) {
            throw new SecretUnavailableException("SecretInvalid", e.getMessage());
        }
    }
}
