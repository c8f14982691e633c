package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.dpone.backfill.core.campaign.rule.Required;
import io.dpone.backfill.core.campaign.rule.Size;

import java.util.Objects;

/** Names a Secret in the campaign's namespace that holds connection settings; credentials never appear in the spec. */
public class SecretRef {
    @Required
    @Size(min = 1, max = 253)
    @JsonPropertyDescription("Name of a Secret in the campaign's namespace with keys url, user, password (or jdbcUrl).")
    private String name;

    public SecretRef() {
    }

    public SecretRef(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    SecretRef copy() {
        return new SecretRef(name);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SecretRef other && Objects.equals(name, other.name);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(name);
    }
}
