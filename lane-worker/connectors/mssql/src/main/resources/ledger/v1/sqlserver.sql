-- dpone backfill ledger, SQL Server (2019+, Azure SQL), schema version 1: the same tables, columns and meaning as
-- postgresql.sql. Applied in one transaction under an application lock (MssqlLedgerSchema); batches are separated
-- by lines holding only GO. Placeholders: ${schema} is the bracket-quoted spec.state.schema; ${schema_in_literal}
-- the same inside an N'' literal; ${schema_name_in_literal} the bare name inside an N'' literal.
-- Every batch is idempotent: objects are created only when OBJECT_ID / sys.columns say they are missing, one column
-- per ADD and per guard, so a ledger that stopped between two columns gets the rest (and T-SQL engines that take one
-- column per ADD read the same script).
--
-- Types. Times are datetime2(3) holding UTC, always written from SYSUTCDATETIME() (the database clock): leases
-- are seconds long, so milliseconds suffice, and a plain UTC datetime2 compares with SYSUTCDATETIME() without
-- conversion (datetimeoffset would only ever hold +00:00, in 10 bytes instead of 7). Text the ledger compares
-- (backfill ids, owners, states, phases, anchors, receipt ids) uses a binary collation, so 'Lane-A' is not 'lane-a'
-- even in a case-insensitive database, as in PostgreSQL. Run keys keep the database's collation: they are
-- lowercase hex digests ("rk-" + hex), so no collation can change how two of them compare, and every run_key
-- column (keys, foreign keys, joins) shares one collation. Free text is nvarchar(max); booleans are bit.

IF SCHEMA_ID(N'${schema_name_in_literal}') IS NULL
    EXEC (N'CREATE SCHEMA ${schema_in_literal}');
GO

IF OBJECT_ID(N'${schema_in_literal}.ledger_version', N'U') IS NULL
CREATE TABLE ${schema}.ledger_version (
    version     int          NOT NULL CONSTRAINT ledger_version_pk PRIMARY KEY,
    applied_at  datetime2(3) NOT NULL CONSTRAINT ledger_version_applied_at DEFAULT SYSUTCDATETIME()
);
GO

IF OBJECT_ID(N'${schema_in_literal}.campaign', N'U') IS NULL
CREATE TABLE ${schema}.campaign (
    run_key             nvarchar(128) NOT NULL CONSTRAINT campaign_pk PRIMARY KEY,
    backfill_id         nvarchar(128) COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT campaign_backfill_id UNIQUE,
    plan_digest         nvarchar(128) COLLATE Latin1_General_100_BIN2 NOT NULL,
    config_digest       nvarchar(128) COLLATE Latin1_General_100_BIN2 NOT NULL,
    spec_json           nvarchar(max) NOT NULL,
    chunk_total         int           NOT NULL,
    phase               nvarchar(32)  COLLATE Latin1_General_100_BIN2 NOT NULL,
    detail              nvarchar(max) NOT NULL CONSTRAINT campaign_detail DEFAULT N'{}',
    anchor_xmin         nvarchar(64)  COLLATE Latin1_General_100_BIN2 NULL,
    source_shape_digest nvarchar(128) COLLATE Latin1_General_100_BIN2 NULL,
    target_shape_digest nvarchar(128) COLLATE Latin1_General_100_BIN2 NULL,
    stop_requested      bit           NOT NULL CONSTRAINT campaign_stop_requested DEFAULT 0,
    lease_owner         nvarchar(256) COLLATE Latin1_General_100_BIN2 NULL,
    lease_epoch         bigint        NOT NULL CONSTRAINT campaign_lease_epoch DEFAULT 0,
    lease_expires       datetime2(3)  NULL,
    created_at          datetime2(3)  NOT NULL CONSTRAINT campaign_created_at DEFAULT SYSUTCDATETIME(),
    updated_at          datetime2(3)  NOT NULL CONSTRAINT campaign_updated_at DEFAULT SYSUTCDATETIME()
);
GO

-- The claim index is created with its table: the script runs in one transaction, so the two appear together.
IF OBJECT_ID(N'${schema_in_literal}.chunk', N'U') IS NULL
BEGIN
    CREATE TABLE ${schema}.chunk (
        run_key         nvarchar(128) NOT NULL,
        chunk_id        int           NOT NULL,
        lower_bound     nvarchar(256) COLLATE Latin1_General_100_BIN2 NULL,
        upper_bound     nvarchar(256) COLLATE Latin1_General_100_BIN2 NULL,
        state           nvarchar(16)  COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT chunk_state_default DEFAULT N'pending'
                        CONSTRAINT chunk_state CHECK (state IN (N'pending', N'running', N'committed', N'failed')),
        attempts        int           NOT NULL CONSTRAINT chunk_attempts DEFAULT 0,
        owner           nvarchar(256) COLLATE Latin1_General_100_BIN2 NULL,
        epoch           bigint        NOT NULL CONSTRAINT chunk_epoch DEFAULT 0,
        lease_expires   datetime2(3)  NULL,
        rows_extracted  bigint        NOT NULL CONSTRAINT chunk_rows_extracted DEFAULT 0,
        rows_loaded     bigint        NOT NULL CONSTRAINT chunk_rows_loaded DEFAULT 0,
        started_at      datetime2(3)  NULL,
        finished_at     datetime2(3)  NULL,
        last_error      nvarchar(2000) NULL,
        CONSTRAINT chunk_pk PRIMARY KEY (run_key, chunk_id),
        CONSTRAINT chunk_campaign FOREIGN KEY (run_key) REFERENCES ${schema}.campaign (run_key)
    );
    CREATE INDEX chunk_claimable ON ${schema}.chunk (run_key, state, chunk_id);
END;
GO

-- Inserted first in the chunk's commit transaction: a competing writer of the same chunk blocks
-- on (or fails against) this key, so a chunk's rows can be appended at most once.
IF OBJECT_ID(N'${schema_in_literal}.chunk_receipt', N'U') IS NULL
CREATE TABLE ${schema}.chunk_receipt (
    run_key       nvarchar(128) NOT NULL,
    chunk_id      int           NOT NULL,
    epoch         bigint        NOT NULL,
    owner         nvarchar(256) COLLATE Latin1_General_100_BIN2 NOT NULL,
    rows_loaded   bigint        NOT NULL CONSTRAINT chunk_receipt_rows_loaded DEFAULT 0,
    committed_at  datetime2(3)  NOT NULL CONSTRAINT chunk_receipt_committed_at DEFAULT SYSUTCDATETIME(),
    CONSTRAINT chunk_receipt_pk PRIMARY KEY (run_key, chunk_id)
);
GO

IF OBJECT_ID(N'${schema_in_literal}.publication_receipt', N'U') IS NULL
CREATE TABLE ${schema}.publication_receipt (
    run_key        nvarchar(128) NOT NULL CONSTRAINT publication_receipt_pk PRIMARY KEY,
    receipt_id     nvarchar(128) COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT publication_receipt_id UNIQUE,
    target_schema  nvarchar(128) NOT NULL,
    live_table     nvarchar(128) NOT NULL,
    backup_table   nvarchar(128) NOT NULL,
    shadow_table   nvarchar(128) NOT NULL,
    rows_published bigint        NOT NULL,
    lease_epoch    bigint        NOT NULL,
    published_at   datetime2(3)  NOT NULL CONSTRAINT publication_receipt_published_at DEFAULT SYSUTCDATETIME(),
    CONSTRAINT publication_receipt_campaign FOREIGN KEY (run_key) REFERENCES ${schema}.campaign (run_key)
);
GO

IF OBJECT_ID(N'${schema_in_literal}.rollback_receipt', N'U') IS NULL
CREATE TABLE ${schema}.rollback_receipt (
    run_key        nvarchar(128) NOT NULL CONSTRAINT rollback_receipt_pk PRIMARY KEY,
    receipt_id     nvarchar(128) COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT rollback_receipt_id UNIQUE,
    reason         nvarchar(max) NOT NULL,
    lease_epoch    bigint        NOT NULL,
    rolled_back_at datetime2(3)  NOT NULL CONSTRAINT rollback_receipt_rolled_back_at DEFAULT SYSUTCDATETIME(),
    CONSTRAINT rollback_receipt_campaign FOREIGN KEY (run_key) REFERENCES ${schema}.campaign (run_key)
);
GO

IF OBJECT_ID(N'${schema_in_literal}.handoff_receipt', N'U') IS NULL
CREATE TABLE ${schema}.handoff_receipt (
    run_key       nvarchar(128) NOT NULL CONSTRAINT handoff_receipt_pk PRIMARY KEY,
    receipt_id    nvarchar(128) COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT handoff_receipt_id UNIQUE,
    anchor_xmin   nvarchar(64)  COLLATE Latin1_General_100_BIN2 NOT NULL,
    lease_epoch   bigint        NOT NULL,
    committed_at  datetime2(3)  NOT NULL CONSTRAINT handoff_receipt_committed_at DEFAULT SYSUTCDATETIME(),
    CONSTRAINT handoff_receipt_campaign FOREIGN KEY (run_key) REFERENCES ${schema}.campaign (run_key)
);
GO

-- Evidence against hidden writes (ADR 0008): the reviewed live target as preparation found it (shape and
-- content fingerprint), the published table's fingerprint, and what a rollback accepted to move away.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.campaign') AND name = N'live_baseline')
    ALTER TABLE ${schema}.campaign ADD live_baseline nvarchar(max) NULL;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.publication_receipt') AND name = N'published_fingerprint')
    ALTER TABLE ${schema}.publication_receipt ADD published_fingerprint nvarchar(max) NULL;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.rollback_receipt') AND name = N'accepted_writes')
    ALTER TABLE ${schema}.rollback_receipt ADD accepted_writes nvarchar(max) NULL;
-- A person's approval of the swap (issue 28), written without a lease; the publication receipt copies it.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.campaign') AND name = N'approved_by')
    ALTER TABLE ${schema}.campaign ADD approved_by nvarchar(256) NULL;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.campaign') AND name = N'approved_at')
    ALTER TABLE ${schema}.campaign ADD approved_at datetime2(3) NULL;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.publication_receipt') AND name = N'approved_by')
    ALTER TABLE ${schema}.publication_receipt ADD approved_by nvarchar(256) NULL;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.publication_receipt') AND name = N'approved_at')
    ALTER TABLE ${schema}.publication_receipt ADD approved_at datetime2(3) NULL;
-- The rate ceiling lanes pace themselves to (issue 28; 0: none) and how many lanes share it; NULL until written.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.campaign') AND name = N'throttle_rows_per_second')
    ALTER TABLE ${schema}.campaign ADD throttle_rows_per_second bigint NULL;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.campaign') AND name = N'throttle_bytes_per_second')
    ALTER TABLE ${schema}.campaign ADD throttle_bytes_per_second bigint NULL;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.campaign') AND name = N'throttle_lanes')
    ALTER TABLE ${schema}.campaign ADD throttle_lanes int NULL;
-- Why lanes claim nothing for now (issue 28: the source guard, the load windows); NULL: they claim.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.campaign') AND name = N'claim_pause')
    ALTER TABLE ${schema}.campaign ADD claim_pause nvarchar(1000) NULL;
GO

-- Rows per chunk as the source estimated them at preparation (ADR 0012): the ETA counts rows remaining from
-- these. Null in ledgers prepared before estimates, whose ETA falls back to committed chunks' average.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.chunk') AND name = N'rows_estimated')
    ALTER TABLE ${schema}.chunk ADD rows_estimated bigint NULL;
-- Rows the running attempt has copied so far, reported with each lease renewal: its rows are uncommitted,
-- so without this a long chunk would look like no progress until it commits.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.chunk') AND name = N'rows_copied')
    ALTER TABLE ${schema}.chunk ADD rows_copied bigint NOT NULL CONSTRAINT chunk_rows_copied DEFAULT 0;
-- How lanes move rows (ADR 0017), chosen at preparation; values for a SQL Server sink.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.campaign') AND name = N'row_encoding')
    ALTER TABLE ${schema}.campaign ADD row_encoding nvarchar(32) NULL;
GO

-- When the current holder took the campaign lease (ADR 0016): a driver waiting for the driver lock says who
-- holds the campaign and since when.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.campaign') AND name = N'lease_since')
    ALTER TABLE ${schema}.campaign ADD lease_since datetime2(3) NULL;
GO

-- The chunk's content digest (ADR 0018), written with the receipt's row count in the chunk's own transaction.
-- Null in receipts written before it. The last verify run's result, for status and the evidence JSON.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.chunk_receipt') AND name = N'content_digest')
    ALTER TABLE ${schema}.chunk_receipt ADD content_digest nvarchar(128) NULL;
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.campaign') AND name = N'verification')
    ALTER TABLE ${schema}.campaign ADD verification nvarchar(max) NULL;
GO

-- Whether the chunk's claim came from a session holding its owner's lane lock (ADR 0021): then the chunk is
-- claimable again as soon as that lock is free (the lane's session is gone), not only once its lease expires.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.chunk') AND name = N'owner_locked')
    ALTER TABLE ${schema}.chunk ADD owner_locked bit NOT NULL CONSTRAINT chunk_owner_locked DEFAULT 0;
-- The target refused the chunk's rows themselves (issue 35: a value it cannot hold, a constraint): every attempt
-- would fail the same way, so the chunk is not claimed again until a person resumes the campaign.
IF NOT EXISTS (SELECT 1 FROM sys.columns WHERE object_id = OBJECT_ID(N'${schema_in_literal}.chunk') AND name = N'refused')
    ALTER TABLE ${schema}.chunk ADD refused bit NOT NULL CONSTRAINT chunk_refused DEFAULT 0;
GO

-- Progress without walking the chunks (ADR 0027): what committed chunks add up to, kept as counters written in
-- the commit's own transaction, one row per committing lane (no two lanes update the same row), and one plan row
-- (owner N'') with the chunks planned and the estimates recorded at preparation. A run without a plan row was
-- planned before these counters: its progress is still read by one aggregate over its chunks.
--   chunks: plan row, chunks planned; a lane's row, chunks it committed.
--   estimated_chunks, estimated_rows: plan row, chunks with an estimate and their sum; a lane's row, the same
--   over the chunks it committed.
-- The two chunk indexes read the rows committed in the last minute and the first start, each as one index range;
-- they are created with the table: the script runs in one transaction, so the three appear together.
IF OBJECT_ID(N'${schema_in_literal}.run_progress', N'U') IS NULL
BEGIN
    CREATE TABLE ${schema}.run_progress (
        run_key          nvarchar(128) NOT NULL,
        owner            nvarchar(256) COLLATE Latin1_General_100_BIN2 NOT NULL,
        chunks           bigint        NOT NULL CONSTRAINT run_progress_chunks DEFAULT 0,
        rows_extracted   bigint        NOT NULL CONSTRAINT run_progress_rows_extracted DEFAULT 0,
        rows_loaded      bigint        NOT NULL CONSTRAINT run_progress_rows_loaded DEFAULT 0,
        estimated_chunks bigint        NOT NULL CONSTRAINT run_progress_estimated_chunks DEFAULT 0,
        estimated_rows   bigint        NOT NULL CONSTRAINT run_progress_estimated_rows DEFAULT 0,
        CONSTRAINT run_progress_pk PRIMARY KEY (run_key, owner),
        CONSTRAINT run_progress_campaign FOREIGN KEY (run_key) REFERENCES ${schema}.campaign (run_key)
    );
    CREATE INDEX chunk_finished ON ${schema}.chunk (run_key, finished_at);
    CREATE INDEX chunk_started ON ${schema}.chunk (run_key, started_at);
END;
GO

-- Publication groups (issue 27, ADR 0041): one row per member campaign, written when it opens (group, terms,
-- live table) and completed when it has validated and may swap. The group's swap reads every member's row inside
-- its one transaction. Created with its index: the script runs in one transaction.
IF OBJECT_ID(N'${schema_in_literal}.publication_group_member', N'U') IS NULL
BEGIN
    CREATE TABLE ${schema}.publication_group_member (
        run_key               nvarchar(128) NOT NULL CONSTRAINT publication_group_member_pk PRIMARY KEY,
        group_name            nvarchar(63)  COLLATE Latin1_General_100_BIN2 NOT NULL,
        terms_digest          nvarchar(64)  COLLATE Latin1_General_100_BIN2 NOT NULL,
        target_schema         nvarchar(128) NOT NULL,
        live_table            nvarchar(128) NOT NULL,
        shadow_table          nvarchar(128) NULL,
        backup_table          nvarchar(128) NULL,
        rows_published        bigint        NULL,
        live_baseline         nvarchar(max) NULL,
        published_fingerprint nvarchar(max) NULL,
        ready_at              datetime2(3)  NULL,
        CONSTRAINT publication_group_member_campaign FOREIGN KEY (run_key) REFERENCES ${schema}.campaign (run_key)
    );
    CREATE INDEX publication_group_member_group ON ${schema}.publication_group_member (group_name);
END;
GO

IF NOT EXISTS (SELECT 1 FROM ${schema}.ledger_version WHERE version = 1)
    INSERT INTO ${schema}.ledger_version (version) VALUES (1);
