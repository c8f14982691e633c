package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.dpone.backfill.core.campaign.rule.Required;
import io.dpone.backfill.core.campaign.rule.Size;

import java.util.Objects;

/** The PostgreSQL table the campaign reads. */
public class SourceSpec {
    @JsonPropertyDescription("Source engine; only postgres in this release.")
    private SourceType type;
    @Required
    @JsonPropertyDescription("Secret with the source connection settings.")
    private SecretRef connectionSecretRef;
    @Size(min = 1, max = 63)
    @JsonPropertyDescription("Source schema (default public).")
    private String schema;
    @Required
    @Size(min = 1, max = 63)
    @JsonPropertyDescription("Source table.")
    private String table;

    public SourceType getType() {
        return type;
    }

    public void setType(SourceType type) {
        this.type = type;
    }

    public SecretRef getConnectionSecretRef() {
        return connectionSecretRef;
    }

    public void setConnectionSecretRef(SecretRef connectionSecretRef) {
        this.connectionSecretRef = connectionSecretRef;
    }

    public String getSchema() {
        return schema;
    }

    public void setSchema(String schema) {
        this.schema = schema;
    }

    public String getTable() {
        return table;
    }

    public void setTable(String table) {
        this.table = table;
    }

    SourceSpec copy() {
        SourceSpec c = new SourceSpec();
        c.type = type;
        c.connectionSecretRef = connectionSecretRef == null ? null : connectionSecretRef.copy();
        c.schema = schema;
        c.table = table;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SourceSpec s && type == s.type && Objects.equals(connectionSecretRef, s.connectionSecretRef)
                && Objects.equals(schema, s.schema) && Objects.equals(table, s.table);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, connectionSecretRef, schema, table);
    }
}
