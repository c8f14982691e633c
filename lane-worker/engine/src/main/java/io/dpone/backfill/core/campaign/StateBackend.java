package io.dpone.backfill.core.campaign;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Where the ledger lives: a schema in the target database, so receipts commit with the rows. */
public enum StateBackend {
    @JsonProperty("audit_schema") AUDIT_SCHEMA
}
