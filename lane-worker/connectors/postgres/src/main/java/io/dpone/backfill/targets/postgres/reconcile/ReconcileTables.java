package io.dpone.backfill.targets.postgres.reconcile;

import io.dpone.backfill.postgres.PostgresIdentifiers;

/**
 * The reconciliation tables in the campaign's state schema (issue 38), beside the ledger: passes, each range's
 * receipt (written in the range's own transaction: its xmin is how a later pass knows the rows that transaction
 * wrote are the product's), and the queue of keys someone else wrote.
 */
final class ReconcileTables {
    final String pass;
    final String range;
    final String queue;
    final String campaign;
    final String publication;

    ReconcileTables(String stateSchema) {
        this.pass = PostgresIdentifiers.qualified(stateSchema, "reconcile_pass");
        this.range = PostgresIdentifiers.qualified(stateSchema, "reconcile_range");
        this.queue = PostgresIdentifiers.qualified(stateSchema, "reconcile_queue");
        this.campaign = PostgresIdentifiers.qualified(stateSchema, "campaign");
        this.publication = PostgresIdentifiers.qualified(stateSchema, "publication_receipt");
    }

    String[] ddl() {
        return new String[] {
                "CREATE TABLE IF NOT EXISTS " + pass + " (run_key text NOT NULL REFERENCES " + campaign + " (run_key),"
                        + " pass integer NOT NULL, since_anchor text NOT NULL, anchor text NOT NULL, lease_epoch bigint NOT NULL,"
                        + " started_at timestamptz NOT NULL DEFAULT now(), finished_at timestamptz,"
                        + " upserted bigint, deleted bigint, queued bigint, PRIMARY KEY (run_key, pass))",
                "CREATE TABLE IF NOT EXISTS " + range + " (run_key text NOT NULL, pass integer NOT NULL,"
                        + " range_id integer NOT NULL, upserted bigint NOT NULL, deleted bigint NOT NULL, queued bigint NOT NULL,"
                        + " keys_compared boolean NOT NULL, lease_epoch bigint NOT NULL, committed_at timestamptz NOT NULL DEFAULT now(),"
                        + " PRIMARY KEY (run_key, pass, range_id), FOREIGN KEY (run_key, pass) REFERENCES " + pass + " (run_key, pass))",
                "CREATE TABLE IF NOT EXISTS " + queue + " (run_key text NOT NULL REFERENCES " + campaign + " (run_key),"
                        + " key text NOT NULL, reason text NOT NULL, pass integer NOT NULL, queued_at timestamptz NOT NULL DEFAULT now(),"
                        + " decision text CHECK (decision IN ('accept', 'keep')), decided_at timestamptz, PRIMARY KEY (run_key, key))"};
    }

    /**
     * Whether target row {@code alias} is the product's: written before or by the publication (the loaded shadow),
     * or by one of this campaign's reconciliation ranges. Anything else was written after publication by someone else.
     */
    String ours(String alias) {
        return "(pg_catalog.age(" + alias + ".xmin) >= pg_catalog.age((SELECT p.xmin FROM " + publication + " p WHERE p.run_key = ?))"
                + " OR " + alias + ".xmin IN (SELECT r.xmin FROM " + range + " r WHERE r.run_key = ?))";
    }
}
