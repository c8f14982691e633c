-- dpone backfill ledger, PostgreSQL, schema version 1.
-- ${schema} is replaced by the quoted spec.state.schema. Every statement is idempotent.
-- The ledger lives in the target database so that chunk receipts commit in the same
-- transaction as the rows they describe.

CREATE SCHEMA IF NOT EXISTS ${schema};

CREATE TABLE IF NOT EXISTS ${schema}.ledger_version (
    version     integer     NOT NULL PRIMARY KEY,
    applied_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS ${schema}.campaign (
    run_key             text        NOT NULL PRIMARY KEY,
    backfill_id         text        NOT NULL UNIQUE,
    plan_digest         text        NOT NULL,
    config_digest       text        NOT NULL,
    spec_json           text        NOT NULL,
    chunk_total         integer     NOT NULL,
    phase               text        NOT NULL,
    detail              text        NOT NULL DEFAULT '{}',
    anchor_xmin         text,
    source_shape_digest text,
    target_shape_digest text,
    stop_requested      boolean     NOT NULL DEFAULT false,
    lease_owner         text,
    lease_epoch         bigint      NOT NULL DEFAULT 0,
    lease_expires       timestamptz,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS ${schema}.chunk (
    run_key         text        NOT NULL REFERENCES ${schema}.campaign (run_key),
    chunk_id        integer     NOT NULL,
    lower_bound     text,
    upper_bound     text,
    state           text        NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'running', 'committed', 'failed')),
    attempts        integer     NOT NULL DEFAULT 0,
    owner           text,
    epoch           bigint      NOT NULL DEFAULT 0,
    lease_expires   timestamptz,
    rows_extracted  bigint      NOT NULL DEFAULT 0,
    rows_loaded     bigint      NOT NULL DEFAULT 0,
    started_at      timestamptz,
    finished_at     timestamptz,
    last_error      text,
    PRIMARY KEY (run_key, chunk_id)
);

CREATE INDEX IF NOT EXISTS chunk_claimable ON ${schema}.chunk (run_key, state, chunk_id);

-- Inserted first in the chunk's commit transaction: a competing writer of the same chunk blocks
-- on (or fails against) this key, so a chunk's rows can be appended at most once.
CREATE TABLE IF NOT EXISTS ${schema}.chunk_receipt (
    run_key       text        NOT NULL,
    chunk_id      integer     NOT NULL,
    epoch         bigint      NOT NULL,
    owner         text        NOT NULL,
    rows_loaded   bigint      NOT NULL DEFAULT 0,
    committed_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_key, chunk_id)
);

CREATE TABLE IF NOT EXISTS ${schema}.publication_receipt (
    run_key       text        NOT NULL PRIMARY KEY REFERENCES ${schema}.campaign (run_key),
    receipt_id    text        NOT NULL UNIQUE,
    target_schema text        NOT NULL,
    live_table    text        NOT NULL,
    backup_table  text        NOT NULL,
    shadow_table  text        NOT NULL,
    rows_published bigint     NOT NULL,
    lease_epoch   bigint      NOT NULL,
    published_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS ${schema}.rollback_receipt (
    run_key        text        NOT NULL PRIMARY KEY REFERENCES ${schema}.campaign (run_key),
    receipt_id     text        NOT NULL UNIQUE,
    reason         text        NOT NULL,
    lease_epoch    bigint      NOT NULL,
    rolled_back_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS ${schema}.handoff_receipt (
    run_key       text        NOT NULL PRIMARY KEY REFERENCES ${schema}.campaign (run_key),
    receipt_id    text        NOT NULL UNIQUE,
    anchor_xmin   text        NOT NULL,
    lease_epoch   bigint      NOT NULL,
    committed_at  timestamptz NOT NULL DEFAULT now()
);

-- Evidence against hidden writes (ADR 0008): the reviewed live target as preparation found it (shape and
-- content fingerprint), the published table's fingerprint, and what a rollback accepted to move away.
ALTER TABLE ${schema}.campaign ADD COLUMN IF NOT EXISTS live_baseline text;
ALTER TABLE ${schema}.publication_receipt ADD COLUMN IF NOT EXISTS published_fingerprint text;
ALTER TABLE ${schema}.rollback_receipt ADD COLUMN IF NOT EXISTS accepted_writes text;

-- Rows per chunk as the source estimated them at preparation (ADR 0012): the ETA counts rows remaining from
-- these. Null in ledgers prepared before estimates, whose ETA falls back to committed chunks' average.
ALTER TABLE ${schema}.chunk ADD COLUMN IF NOT EXISTS rows_estimated bigint;
-- Rows the running attempt has copied so far, reported with each lease renewal: its rows are uncommitted,
-- so without this a long chunk would look like no progress until it commits.
ALTER TABLE ${schema}.chunk ADD COLUMN IF NOT EXISTS rows_copied bigint NOT NULL DEFAULT 0;

-- How lanes move rows (ADR 0017), chosen at preparation: postgres_copy_binary when every loaded column has the
-- identical built-in type on both sides, else the sink's own encoding. Null in ledgers prepared before it: text.
ALTER TABLE ${schema}.campaign ADD COLUMN IF NOT EXISTS row_encoding text;

-- When the current holder took the campaign lease (ADR 0016): a driver waiting for the driver lock says who
-- holds the campaign and since when.
ALTER TABLE ${schema}.campaign ADD COLUMN IF NOT EXISTS lease_since timestamptz;

-- The chunk's content digest (ADR 0018), written with the receipt's row count in the chunk's own transaction:
-- v1:<rows>:<sum of key hashes>:<sum of row hashes>. Null in receipts written before it: verify reports those
-- chunks as "no digest recorded". The last verify run's result, for status and the evidence JSON.
ALTER TABLE ${schema}.chunk_receipt ADD COLUMN IF NOT EXISTS content_digest text;
ALTER TABLE ${schema}.campaign ADD COLUMN IF NOT EXISTS verification text;

-- Whether the chunk's claim came from a session holding its owner's lane lock (ADR 0021): then the chunk is
-- claimable again as soon as that lock is free (the lane's session is gone), not only once its lease expires.
ALTER TABLE ${schema}.chunk ADD COLUMN IF NOT EXISTS owner_locked boolean NOT NULL DEFAULT false;
-- The target refused the chunk's rows themselves (issue 35: a value it cannot hold, a constraint): every attempt
-- would fail the same way, so the chunk is not claimed again until a person resumes the campaign.
ALTER TABLE ${schema}.chunk ADD COLUMN IF NOT EXISTS refused boolean NOT NULL DEFAULT false;

-- Progress without walking the chunks (ADR 0027): what committed chunks add up to, kept as counters written in
-- the commit's own statement, one row per committing lane (no two lanes update the same row), and one plan row
-- (owner '') with the chunks planned and the estimates recorded at preparation. A run without a plan row was
-- planned before these counters: its progress is still read by one aggregate over its chunks.
--   chunks: plan row, chunks planned; a lane's row, chunks it committed.
--   estimated_chunks, estimated_rows: plan row, chunks with an estimate and their sum; a lane's row, the same
--   over the chunks it committed.
CREATE TABLE IF NOT EXISTS ${schema}.run_progress (
    run_key          text   NOT NULL REFERENCES ${schema}.campaign (run_key),
    owner            text   NOT NULL,
    chunks           bigint NOT NULL DEFAULT 0,
    rows_extracted   bigint NOT NULL DEFAULT 0,
    rows_loaded      bigint NOT NULL DEFAULT 0,
    estimated_chunks bigint NOT NULL DEFAULT 0,
    estimated_rows   bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (run_key, owner)
);
-- The rows committed in the last minute and the first start, each read from its own index range.
CREATE INDEX IF NOT EXISTS chunk_finished ON ${schema}.chunk (run_key, finished_at);
CREATE INDEX IF NOT EXISTS chunk_started ON ${schema}.chunk (run_key, started_at);

-- A person's approval of the swap (issue 28), written without a lease by `backfill publish` or the operator's
-- annotation; the first one stands. The publication receipt copies it in the swap's transaction.
ALTER TABLE ${schema}.campaign ADD COLUMN IF NOT EXISTS approved_by text;
ALTER TABLE ${schema}.campaign ADD COLUMN IF NOT EXISTS approved_at timestamptz;
ALTER TABLE ${schema}.publication_receipt ADD COLUMN IF NOT EXISTS approved_by text;
ALTER TABLE ${schema}.publication_receipt ADD COLUMN IF NOT EXISTS approved_at timestamptz;

-- Publication groups (issue 27, ADR 0041): one row per member campaign, written when it opens (group, terms,
-- live table) and completed when it has validated and may swap (its shadow, backup, rows, baseline and
-- fingerprint). The group's swap reads every member's row inside its one transaction.
CREATE TABLE IF NOT EXISTS ${schema}.publication_group_member (
    run_key               text        NOT NULL PRIMARY KEY REFERENCES ${schema}.campaign (run_key),
    group_name            text        NOT NULL,
    terms_digest          text        NOT NULL,
    target_schema         text        NOT NULL,
    live_table            text        NOT NULL,
    shadow_table          text,
    backup_table          text,
    rows_published        bigint,
    live_baseline         text,
    published_fingerprint text,
    ready_at              timestamptz
);
CREATE INDEX IF NOT EXISTS publication_group_member_group ON ${schema}.publication_group_member (group_name);

-- The rate ceiling lanes pace themselves to (issue 28; 0: none) and how many lanes share it, written without a lease
-- by the driver (from the spec) or `backfill throttle`; NULL until first written. Lanes read it between slices.
ALTER TABLE ${schema}.campaign ADD COLUMN IF NOT EXISTS throttle_rows_per_second bigint;
ALTER TABLE ${schema}.campaign ADD COLUMN IF NOT EXISTS throttle_bytes_per_second bigint;
ALTER TABLE ${schema}.campaign ADD COLUMN IF NOT EXISTS throttle_lanes integer;
-- Why lanes claim nothing for now (issue 28: the source guard, the load windows) as `Reason: message`, written by
-- the driver; NULL: they claim.
ALTER TABLE ${schema}.campaign ADD COLUMN IF NOT EXISTS claim_pause text;

INSERT INTO ${schema}.ledger_version (version) VALUES (1) ON CONFLICT (version) DO NOTHING;
