package io.dpone.backfill.operator.lanes;

import io.dpone.backfill.connect.DatabaseEndpoint;
import io.dpone.backfill.connect.SecretConnection;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A connection Secret as lane pods see it: its name and which of the documented keys it holds. The pod's
 * environment refers to those keys with {@code secretKeyRef} only; values never pass through the operator into a
 * pod spec. A Secret with {@code host}/{@code port}/{@code database} instead of {@code jdbcUrl} gets its URL
 * composed by the kubelet from {@code $(VAR)} references.
 */
public record ConnectionSecret(String name, Set<String> keys, DatabaseEndpoint endpoint) {
    public ConnectionSecret {
        keys = Set.copyOf(keys);
    }

    /** The BACKFILL_{role}_* variables of a lane pod ({@code role} is SOURCE or TARGET). */
    public List<EnvVar> environment(String role) {
        String prefix = "BACKFILL_" + role + "_";
        List<EnvVar> env = new ArrayList<>();
        if (keys.contains(SecretConnection.JDBC_URL)) {
            env.add(fromSecret(prefix + "JDBC_URL", SecretConnection.JDBC_URL));
        } else {
            env.add(fromSecret(prefix + "HOST", SecretConnection.HOST));
            if (keys.contains(SecretConnection.PORT)) {
                env.add(fromSecret(prefix + "PORT", SecretConnection.PORT));
            } else {
                env.add(new EnvVarBuilder().withName(prefix + "PORT").withValue(endpoint.defaultPort()).build());
            }
            env.add(fromSecret(prefix + "DATABASE", SecretConnection.DATABASE));
            env.add(new EnvVarBuilder().withName(prefix + "JDBC_URL")
                    .withValue(endpoint.jdbcUrl("$(" + prefix + "HOST)", "$(" + prefix + "PORT)", "$(" + prefix + "DATABASE)")).build());
        }
        if (keys.contains(SecretConnection.USER)) {
            env.add(fromSecret(prefix + "USER", SecretConnection.USER));
        } else if (keys.contains(SecretConnection.USERNAME)) {
            env.add(fromSecret(prefix + "USER", SecretConnection.USERNAME));
        }
        if (keys.contains(SecretConnection.PASSWORD)) {
            env.add(fromSecret(prefix + "PASSWORD", SecretConnection.PASSWORD));
        }
        return env;
    }

    private EnvVar fromSecret(String variable, String key) {
        return new EnvVarBuilder().withName(variable).withNewValueFrom().withNewSecretKeyRef()
                .withName(name).withKey(key).withOptional(false).endSecretKeyRef().endValueFrom().build();
    }
}
