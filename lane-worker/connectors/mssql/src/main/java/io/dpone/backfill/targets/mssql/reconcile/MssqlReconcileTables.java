package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

/**
 * The reconciliation tables in the campaign's state schema (issue 38, ADR 0056), beside the ledger: passes (each
 * with the rowversion mark taken when the campaign's first pass opened), each range's receipt (written in the range's
 * own transaction), the queue of keys someone else wrote, and the rowversion each key got when a pass last wrote it,
 * so a later pass knows that row version as the product's. Every name is quoted; the schema is only ever an
 * identifier, never SQL.
 */
final class MssqlReconcileTables {
    final String schema;
    final String pass;
    final String range;
    final String queue;
    final String written;
    final String campaign;

    MssqlReconcileTables(String stateSchema) {
        this.schema = stateSchema;
        this.pass = name("reconcile_pass");
        this.range = name("reconcile_range");
        this.queue = name("reconcile_queue");
        this.written = name("reconcile_written");
        this.campaign = name("campaign");
    }

    private String name(String table) {
        return MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table);
    }

    /** {@code table} as the body of an {@code N'...'} literal for OBJECT_ID. */
    String literal(String table) {
        return MssqlIdentifiers.inLiteral(table);
    }

    /** Each table, created when missing: the statements are idempotent, run in one transaction. */
    String[] ddl() {
        return new String[] {
                "IF OBJECT_ID(N'" + literal(pass) + "', N'U') IS NULL CREATE TABLE " + pass + " ("
                        + "run_key nvarchar(128) NOT NULL, pass int NOT NULL,"
                        + " since_anchor nvarchar(64) COLLATE Latin1_General_100_BIN2 NOT NULL,"
                        + " anchor nvarchar(64) COLLATE Latin1_General_100_BIN2 NOT NULL, row_mark binary(8) NOT NULL,"
                        + " lease_epoch bigint NOT NULL,"
                        + " started_at datetime2(3) NOT NULL CONSTRAINT reconcile_pass_started DEFAULT SYSUTCDATETIME(),"
                        + " finished_at datetime2(3) NULL, upserted bigint NULL, deleted bigint NULL, queued bigint NULL,"
                        + " CONSTRAINT reconcile_pass_pk PRIMARY KEY (run_key, pass),"
                        + " CONSTRAINT reconcile_pass_campaign FOREIGN KEY (run_key) REFERENCES " + campaign + " (run_key))",
                "IF OBJECT_ID(N'" + literal(range) + "', N'U') IS NULL CREATE TABLE " + range + " ("
                        + "run_key nvarchar(128) NOT NULL, pass int NOT NULL, range_id int NOT NULL,"
                        + " upserted bigint NOT NULL, deleted bigint NOT NULL, queued bigint NOT NULL, keys_compared bit NOT NULL,"
                        + " lease_epoch bigint NOT NULL,"
                        + " committed_at datetime2(3) NOT NULL CONSTRAINT reconcile_range_committed DEFAULT SYSUTCDATETIME(),"
                        + " CONSTRAINT reconcile_range_pk PRIMARY KEY (run_key, pass, range_id),"
                        + " CONSTRAINT reconcile_range_pass FOREIGN KEY (run_key, pass) REFERENCES " + pass + " (run_key, pass))",
                "IF OBJECT_ID(N'" + literal(queue) + "', N'U') IS NULL CREATE TABLE " + queue + " ("
                        + "run_key nvarchar(128) NOT NULL, key_sha binary(32) NOT NULL, [key] nvarchar(max) NOT NULL,"
                        + " reason nvarchar(400) NOT NULL, pass int NOT NULL,"
                        + " queued_at datetime2(3) NOT NULL CONSTRAINT reconcile_queue_queued DEFAULT SYSUTCDATETIME(),"
                        + " decision nvarchar(8) COLLATE Latin1_General_100_BIN2 NULL"
                        + " CONSTRAINT reconcile_queue_decision CHECK (decision IN (N'accept', N'keep')),"
                        + " decided_at datetime2(3) NULL, CONSTRAINT reconcile_queue_pk PRIMARY KEY (run_key, key_sha),"
                        + " CONSTRAINT reconcile_queue_campaign FOREIGN KEY (run_key) REFERENCES " + campaign + " (run_key))",
                // A pass's read of the published table asks, row by row, whether a pass wrote that version: the
                // index comes with the table, in the same block.
                "IF OBJECT_ID(N'" + literal(written) + "', N'U') IS NULL BEGIN CREATE TABLE " + written + " ("
                        + "run_key nvarchar(128) NOT NULL, key_sha binary(32) NOT NULL, row_version binary(8) NOT NULL,"
                        + " CONSTRAINT reconcile_written_pk PRIMARY KEY (run_key, key_sha),"
                        + " CONSTRAINT reconcile_written_campaign FOREIGN KEY (run_key) REFERENCES " + campaign + " (run_key));"
                        + " CREATE INDEX reconcile_written_version ON " + written + " (run_key, row_version); END"};
    }
}
