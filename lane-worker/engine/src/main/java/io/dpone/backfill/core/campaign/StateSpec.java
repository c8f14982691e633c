package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.dpone.backfill.core.campaign.rule.Size;

import java.util.Objects;

/** Where the ledger lives in the target database. */
public class StateSpec {
    public static final String DEFAULT_SCHEMA = "backfill_state";

    @JsonPropertyDescription("Ledger backend; only audit_schema (a schema in the target database).")
    private StateBackend backend;
    @Size(min = 1, max = 63)
    @JsonPropertyDescription("Schema that holds the ledger tables (default backfill_state).")
    private String schema;
    @JsonPropertyDescription("Fence campaign ownership with a database lease (default true; required by shadow_swap).")
    private Boolean requireDistributedLock;

    public StateBackend getBackend() {
        return backend;
    }

    public void setBackend(StateBackend backend) {
        this.backend = backend;
    }

    public String getSchema() {
        return schema;
    }

    public void setSchema(String schema) {
        this.schema = schema;
    }

    public Boolean getRequireDistributedLock() {
        return requireDistributedLock;
    }

    public void setRequireDistributedLock(Boolean requireDistributedLock) {
        this.requireDistributedLock = requireDistributedLock;
    }

    StateSpec copy() {
        StateSpec c = new StateSpec();
        c.backend = backend;
        c.schema = schema;
        c.requireDistributedLock = requireDistributedLock;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StateSpec s && backend == s.backend && Objects.equals(schema, s.schema)
                && Objects.equals(requireDistributedLock, s.requireDistributedLock);
    }

    @Override
    public int hashCode() {
        return Objects.hash(backend, schema, requireDistributedLock);
    }
}
