package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.dpone.backfill.core.campaign.rule.Required;
import io.dpone.backfill.core.campaign.rule.Size;

import java.util.Objects;

/** The reviewed, already provisioned table the campaign loads. */
public class TargetSpec {
    @Required
    @JsonPropertyDescription("Target engine: mssql or postgres.")
    private TargetType type;
    @Required
    @JsonPropertyDescription("Secret with the target connection settings; the ledger lives in this database too.")
    private SecretRef connectionSecretRef;
    @Size(min = 1, max = 128)
    @JsonPropertyDescription("Target schema (default dbo for mssql, public for postgres).")
    private String schema;
    @Required
    @Size(min = 1, max = 128)
    @JsonPropertyDescription("Target table; its catalog shape is the authority for the shadow.")
    private String table;

    public TargetType getType() {
        return type;
    }

    public void setType(TargetType type) {
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

    TargetSpec copy() {
        TargetSpec c = new TargetSpec();
        c.type = type;
        c.connectionSecretRef = connectionSecretRef == null ? null : connectionSecretRef.copy();
        c.schema = schema;
        c.table = table;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TargetSpec t && type == t.type && Objects.equals(connectionSecretRef, t.connectionSecretRef)
                && Objects.equals(schema, t.schema) && Objects.equals(table, t.table);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, connectionSecretRef, schema, table);
    }
}
