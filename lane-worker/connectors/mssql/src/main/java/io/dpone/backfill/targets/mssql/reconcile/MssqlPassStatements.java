package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.targets.mssql.MssqlIdentifiers;
import io.dpone.backfill.targets.mssql.types.MssqlColumn;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The T-SQL a pass applies a range with (ADR 0056), built from quoted names only; every value is a bound parameter.
 * Writes to the published table run under {@code UPDLOCK, SERIALIZABLE} in the range's transaction (an UPDATE, then
 * an INSERT of the keys still absent: not MERGE, whose matching under weak locks races), and each statement's
 * {@code OUTPUT} records the key and new row version of what it wrote, so later passes know those versions as the
 * product's. A row is rewritten only where some column differs byte for byte (text compared as bytes, so a
 * case-insensitive collation cannot hide a change).
 */
final class MssqlPassStatements {
    static final String ROWS = "#bf_reconcile_rows";
    static final String OTHERS = "#bf_reconcile_others";
    static final String GONE = "#bf_reconcile_gone";
    static final String MISSING = "#bf_reconcile_missing";
    static final String WROTE = "#bf_reconcile_wrote";
    static final String DELETED = "#bf_reconcile_deleted";
    /** The differing buckets' keys, as the source has them and as the published table has them. */
    static final String SOURCE_KEYS = "#bf_reconcile_source_keys";
    static final String PUBLISHED_KEYS = "#bf_reconcile_published_keys";
    static final List<String> STAGED = List.of(ROWS, OTHERS, GONE, MISSING, WROTE, DELETED, SOURCE_KEYS, PUBLISHED_KEYS);
    /** The staged tables' own columns: names no published table's column is likely to have. */
    static final String RANGE = MssqlIdentifiers.quote("dpone range");
    static final String KEY = MssqlIdentifiers.quote("dpone key");
    static final String SHA = MssqlIdentifiers.quote("dpone key sha");
    static final String HASH = MssqlIdentifiers.quote("dpone hash");
    static final String VERSION = MssqlIdentifiers.quote("dpone row version");

    /** The statements' own aliases. */
    static final List<String> ALIASES = List.of("bf_t", "bf_s", "bf_w", "bf_q", "bf_g", "bf_k", "bf_x", "bf_d", "bf_none");

    private final String live;
    /** The published table's exposed name: how an UPDATE's conditions name its target row. */
    private final String exposed;
    private final MssqlReconcileTables tables;
    private final List<MssqlColumn> columns;
    private final List<String> key;
    private final String rowVersion;

    MssqlPassStatements(String schema, String table, MssqlReconcileTables tables, List<MssqlColumn> columns, List<String> key,
                        String rowVersion) {
        this.live = MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table);
        if (ALIASES.contains(table.toLowerCase(java.util.Locale.ROOT))) {
            // An UPDATE names its target by the table's exposed name: an alias of the same name would shadow it.
            throw new IllegalArgumentException("reconciliation into " + live + " cannot tell the table from its statements'"
                    + " alias of the same name; its name must not be one of " + ALIASES);
        }
        this.exposed = MssqlIdentifiers.quote(table);
        this.tables = tables;
        this.columns = List.copyOf(columns);
        this.key = List.copyOf(key);
        this.rowVersion = MssqlIdentifiers.quote(rowVersion);
    }

    String live() {
        return live;
    }

    /** Drops a staged table if this session has it. */
    static String drop(String staged) {
        return "DROP TABLE IF EXISTS " + staged;
    }

    /** The staged changed rows: the load columns as the published table types them, then range, key text, its SHA and hash. */
    String createRows() {
        return "SELECT TOP (0) " + list(names(), "bf_t") + ", CAST(0 AS int) AS " + RANGE + ", CAST(N'' AS nvarchar(max)) AS " + KEY
                + ", CAST(0x AS varbinary(32)) AS " + SHA + ", CAST(0 AS bigint) AS " + HASH + " INTO " + ROWS + from();
    }

    /**
     * Staged keys (others' rows, the differing buckets' keys on either side, rows the source no longer has, keys the
     * published table lost): key columns, range, text, SHA, version.
     */
    String createKeys(String staged) {
        return "SELECT TOP (0) " + list(key, "bf_t") + ", CAST(0 AS int) AS " + RANGE + ", CAST(N'' AS nvarchar(max)) AS " + KEY
                + ", CAST(0x AS varbinary(32)) AS " + SHA + ", CAST(0x AS varbinary(8)) AS " + VERSION + " INTO " + staged + from();
    }

    /** Whether the staged key {@code sha} is among the source's changed rows. */
    static String changed(String sha) {
        return "EXISTS (SELECT 1 FROM " + ROWS + " AS bf_x WHERE bf_x." + SHA + " = " + sha + ")";
    }

    /**
     * The staged keys of {@code from} (aliased bf_k) that neither {@code other} nor the changed rows have, into
     * {@code into}: published keys the source no longer has (gone), or source keys the published table lacks (missing).
     */
    String unmatched(String into, String from, String other) {
        String columns = list(key, null) + ", " + RANGE + ", " + KEY + ", " + SHA + ", " + VERSION;
        return "INSERT INTO " + into + " (" + columns + ") SELECT " + list(key, "bf_k") + ", bf_k." + RANGE + ", bf_k." + KEY
                + ", bf_k." + SHA + ", bf_k." + VERSION + " FROM " + from + " AS bf_k WHERE NOT EXISTS (SELECT 1 FROM " + other
                + " AS bf_o WHERE bf_o." + SHA + " = bf_k." + SHA + ") AND NOT " + changed("bf_k." + SHA);
    }

    /** The ranges with rows in {@code staged}. */
    static String ranges(String staged) {
        return "SELECT DISTINCT " + RANGE + " FROM " + staged;
    }

    /** The range and hash of each changed row whose key the published table lacks: what inserting it adds to the digests. */
    String absentRows() {
        return "SELECT bf_s." + RANGE + ", bf_s." + HASH + " FROM " + ROWS + " AS bf_s WHERE NOT EXISTS (SELECT 1 FROM " + live
                + " AS bf_t WHERE " + join("bf_s", "bf_t") + ")";
    }

    /** Where the pass's statements record the key and new row version of each row they wrote. */
    String createWrote() {
        return "SELECT TOP (0) " + list(key, "bf_t") + ", CAST(0x AS varbinary(8)) AS " + VERSION + " INTO " + WROTE + from();
    }

    String createDeleted() {
        return "SELECT TOP (0) " + list(key, "bf_t") + " INTO " + DELETED + from();
    }

    /**
     * The published table as a staged table's empty source: the columns' types, lengths and collations, never their
     * identity property (a join keeps SELECT INTO from carrying it), so staged keys take any value.
     */
    private String from() {
        return " FROM " + live + " AS bf_t JOIN (SELECT 1 AS one) AS bf_none ON 1 = 0";
    }

    /**
     * Every key column, the chunk column, the row version of the published table and whether the row is the
     * product's (its version below the mark, or one a pass recorded writing: a version is one write's, so it names
     * the row by itself), for the pass to read its keys. Parameters: mark, run key.
     */
    String readKeys(String chunkColumn) {
        return "SELECT " + list(key, "bf_t") + ", " + (chunkColumn == null ? "NULL" : "bf_t." + MssqlIdentifiers.quote(chunkColumn))
                + ", CAST(bf_t." + rowVersion + " AS binary(8)), CASE WHEN bf_t." + rowVersion + " < ? OR EXISTS (SELECT 1 FROM "
                + tables.written + " AS bf_w WHERE bf_w.run_key = ? AND bf_w.row_version = CAST(bf_t." + rowVersion
                + " AS binary(8))) THEN 1 ELSE 0 END FROM " + live + " AS bf_t";
    }

    /**
     * Whether published row {@code row} (its staged key's SHA {@code sha}) is the product's: its version is below the
     * mark (parameter 1) or is the one a pass recorded writing (parameter 2: the run key).
     */
    String ours(String row, String sha) {
        return "(" + row + "." + rowVersion + " < ? OR EXISTS (SELECT 1 FROM " + tables.written + " AS bf_w WHERE bf_w.run_key = ?"
                + " AND bf_w.key_sha = " + sha + " AND bf_w.row_version = CAST(" + row + "." + rowVersion + " AS binary(8))))";
    }

    /** A key waiting for a decision or kept: a pass never writes it. One parameter: the run key. */
    String held(String sha) {
        return "EXISTS (SELECT 1 FROM " + tables.queue + " AS bf_q WHERE bf_q.run_key = ? AND bf_q.key_sha = " + sha
                + " AND (bf_q.decision IS NULL OR bf_q.decision = N'keep'))";
    }

    /** A key a person accepted: the pass writes the source's version over whoever wrote it. One parameter: the run key. */
    String accepted(String sha) {
        return "EXISTS (SELECT 1 FROM " + tables.queue + " AS bf_q WHERE bf_q.run_key = ? AND bf_q.key_sha = " + sha
                + " AND bf_q.decision = N'accept')";
    }

    /**
     * Rewrites the range's staged rows whose published row differs and is the product's (or accepted), never a held
     * key. Parameters: range, run key (held), mark, run key (ours), run key (accepted). Null when every column is key.
     * The published table is the UPDATE's own target, named by its exposed name in the conditions, the staged rows
     * the only table in FROM: the form Babelfish also runs with OUTPUT (src-docs/babelfish-gaps.md).
     */
    String update() {
        List<MssqlColumn> others = columns.stream().filter(c -> !key.contains(c.name())).toList();
        if (others.isEmpty()) {
            return null;
        }
        String row = exposed;
        return "UPDATE " + live + " WITH (UPDLOCK, SERIALIZABLE) SET " + others.stream()
                .map(c -> MssqlIdentifiers.quote(c.name()) + " = bf_s." + MssqlIdentifiers.quote(c.name()))
                .collect(Collectors.joining(", ")) + " OUTPUT " + list(key, "inserted") + ", inserted." + rowVersion + " INTO "
                + WROTE + " (" + list(key, null) + ", " + VERSION + ") FROM " + ROWS + " AS bf_s WHERE " + join("bf_s", row)
                + " AND bf_s." + RANGE + " = ? AND NOT " + held("bf_s." + SHA) + " AND EXISTS (SELECT " + exact(others, row)
                + " EXCEPT SELECT " + exact(others, "bf_s") + ") AND (" + ours(row, "bf_s." + SHA) + " OR "
                + accepted("bf_s." + SHA) + ")";
    }

    /** Inserts the range's staged rows whose key the published table lacks, never a held key. Parameters: range, run key. */
    String insert() {
        return "INSERT INTO " + live + " (" + list(names(), null) + ") OUTPUT " + list(key, "inserted") + ", inserted."
                + rowVersion + " INTO " + WROTE + " (" + list(key, null) + ", " + VERSION + ") SELECT "
                + list(names(), "bf_s") + " FROM " + ROWS + " AS bf_s WHERE bf_s." + RANGE + " = ? AND NOT " + held("bf_s." + SHA)
                + " AND NOT EXISTS (SELECT 1 FROM " + live + " AS bf_t WITH (UPDLOCK, SERIALIZABLE) WHERE " + join("bf_s", "bf_t") + ")";
    }

    /** Records the versions the range's statements wrote, replacing a key's earlier one. Parameter: run key. */
    String rememberWrittenUpdate() {
        return "UPDATE bf_w SET row_version = bf_x." + VERSION + " FROM " + tables.written + " AS bf_w JOIN " + ROWS + " AS bf_s ON bf_s."
                + SHA + " = bf_w.key_sha JOIN " + WROTE + " AS bf_x ON " + join("bf_s", "bf_x") + " WHERE bf_w.run_key = ?";
    }

    /** Parameters: run key, run key. */
    String rememberWrittenInsert() {
        return "INSERT INTO " + tables.written + " (run_key, key_sha, row_version) SELECT ?, bf_s." + SHA + ", bf_x." + VERSION
                + " FROM " + WROTE + " AS bf_x JOIN " + ROWS + " AS bf_s ON " + join("bf_s", "bf_x") + " WHERE NOT EXISTS (SELECT 1 FROM "
                + tables.written + " AS bf_w WHERE bf_w.run_key = ? AND bf_w.key_sha = bf_s." + SHA + ")";
    }

    /**
     * Deletes the range's published rows the source no longer has, only as they were read (same version), the
     * product's or accepted, never a held key. Parameters: range, run key (held), mark, run key (ours), run key (accepted).
     */
    String delete() {
        return "DELETE bf_t OUTPUT " + list(key, "deleted") + " INTO " + DELETED + " (" + list(key, null) + ") FROM " + live
                + " AS bf_t WITH (UPDLOCK, SERIALIZABLE) JOIN " + GONE + " AS bf_g ON " + join("bf_g", "bf_t") + " WHERE bf_g."
                + RANGE + " = ? AND CAST(bf_t." + rowVersion + " AS binary(8)) = bf_g." + VERSION + " AND NOT " + held("bf_g." + SHA)
                + " AND (" + ours("bf_t", "bf_g." + SHA) + " OR " + accepted("bf_g." + SHA) + ")";
    }

    /** Accepted keys the range wrote leave the queue. Parameters: run key, range. */
    String settleWritten() {
        return "DELETE bf_q FROM " + tables.queue + " AS bf_q JOIN " + ROWS + " AS bf_s ON bf_s." + SHA + " = bf_q.key_sha"
                + " WHERE bf_q.run_key = ? AND bf_q.decision = N'accept' AND bf_s." + RANGE + " = ?";
    }

    /** Accepted keys the range deleted leave the queue. Parameters: run key, range. */
    String settleDeleted() {
        return "DELETE bf_q FROM " + tables.queue + " AS bf_q JOIN " + GONE + " AS bf_g ON bf_g." + SHA + " = bf_q.key_sha JOIN "
                + DELETED + " AS bf_d ON " + join("bf_g", "bf_d") + " WHERE bf_q.run_key = ? AND bf_q.decision = N'accept'"
                + " AND bf_g." + RANGE + " = ?";
    }

    /**
     * Re-queues keys of {@code staged} (aliased {@code bf_k}) already waiting: new reason and pass, a decided key
     * untouched; {@code reason} is an expression of our own text. Parameters: pass, run key, range.
     */
    String requeue(String staged, String reason, String condition) {
        return "UPDATE bf_q SET reason = " + reason + ", pass = ?, queued_at = SYSUTCDATETIME() FROM " + tables.queue + " AS bf_q JOIN "
                + staged + " AS bf_k ON bf_k." + SHA + " = bf_q.key_sha WHERE bf_q.run_key = ? AND bf_k." + RANGE + " = ?"
                + " AND bf_q.decision IS NULL" + (condition == null ? "" : " AND " + condition);
    }

    /** Queues keys of {@code staged} not in the queue yet. Parameters: run key, pass, range, run key, then the condition's. */
    String enqueue(String staged, String reason, String condition) {
        return "INSERT INTO " + tables.queue + " (run_key, key_sha, [key], reason, pass) SELECT ?, bf_k." + SHA + ", bf_k." + KEY
                + ", " + reason + ", ? FROM " + staged + " AS bf_k WHERE bf_k." + RANGE + " = ? AND NOT EXISTS (SELECT 1 FROM "
                + tables.queue + " AS bf_q WHERE bf_q.run_key = ? AND bf_q.key_sha = bf_k." + SHA + ")"
                + (condition == null ? "" : " AND " + condition);
    }

    /** A missing key (aliased {@code bf_k}) the published table still lacks. */
    String stillMissing() {
        return "NOT EXISTS (SELECT 1 FROM " + live + " AS bf_t WHERE " + join("bf_k", "bf_t") + ")";
    }

    String receipt() {
        return "INSERT INTO " + tables.range + " (run_key, pass, range_id, upserted, deleted, queued, keys_compared, lease_epoch)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    }

    String receiptExists() {
        return "SELECT 1 FROM " + tables.range + " WHERE run_key = ? AND pass = ? AND range_id = ?";
    }

    private List<String> names() {
        return columns.stream().map(MssqlColumn::name).toList();
    }

    /** The columns as compared: text as its bytes, so a collation that folds case or accents hides no change. */
    private static String exact(List<MssqlColumn> columns, String alias) {
        return columns.stream().map(c -> switch (c.typeName()) {
            case "nvarchar", "varchar", "nchar", "char" -> "CAST(" + alias + "." + MssqlIdentifiers.quote(c.name()) + " AS varbinary(max))";
            default -> alias + "." + MssqlIdentifiers.quote(c.name());
        }).collect(Collectors.joining(", "));
    }

    private String join(String left, String right) {
        return key.stream().map(c -> left + "." + MssqlIdentifiers.quote(c) + " = " + right + "." + MssqlIdentifiers.quote(c))
                .collect(Collectors.joining(" AND "));
    }

    private static String list(List<String> names, String alias) {
        return names.stream().map(c -> (alias == null ? "" : alias + ".") + MssqlIdentifiers.quote(c)).collect(Collectors.joining(", "));
    }
}
