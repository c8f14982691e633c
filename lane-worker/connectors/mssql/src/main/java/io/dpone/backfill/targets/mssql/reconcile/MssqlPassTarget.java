package io.dpone.backfill.targets.mssql.reconcile;

import io.dpone.backfill.targets.mssql.MssqlJdbc;
import io.dpone.backfill.core.lane.ChunkRows;
import io.dpone.backfill.core.ledger.CampaignLease;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.plan.UuidKeys;
import io.dpone.backfill.core.reconcile.ChunkReconciled;
import io.dpone.backfill.core.reconcile.KeyBuckets;
import io.dpone.backfill.core.reconcile.KeyDigestSums;
import io.dpone.backfill.core.reconcile.PassTarget;
import io.dpone.backfill.core.reconcile.RangeBuckets;
import io.dpone.backfill.core.reconcile.RecordKeyText;
import io.dpone.backfill.targets.PassTable;
import io.dpone.backfill.targets.mssql.MssqlBulkLoad;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;
import io.dpone.backfill.targets.mssql.MssqlTableColumns;
import io.dpone.backfill.targets.mssql.types.MssqlColumn;
import io.dpone.backfill.targets.mssql.types.MssqlColumnBinding;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.UUID;

/**
 * A reconciliation pass into a SQL Server published table (issue 38, ADR 0056), with the PostgreSQL target's
 * semantics (ADR 0054). SQL Server cannot hash a key as the source does, so the pass reads the published table's
 * key columns back over JDBC and digests them in Java ({@link RecordKeyText}, {@link KeyDigestSums}); the same read
 * tells the product's rows from others' by their {@code rowversion}: below the mark the campaign's first pass took,
 * or a version a pass recorded writing (the server answers, row by row). The source's changed rows are staged with
 * the lanes' bulk copy into a temporary table; the differing buckets' keys of both sides, and others' rows, into
 * others (the published side's through a file, {@link KeyRowSpill}, as the read holds the session), and the server
 * finds what each side lacks: the pass holds no key in memory. Each range then applies in one transaction, fenced by
 * the campaign lease, with its receipt ({@link MssqlPassStatements}).
 */
public final class MssqlPassTarget implements PassTarget {
    private static final String OTHERS_REASON = "CASE WHEN " + MssqlPassStatements.changed("bf_k." + MssqlPassStatements.SHA)
            + " THEN N'written in the published table after"
            + " publication by someone else, and changed in the source since' ELSE N'written in the published table after"
            + " publication by someone else' END";
    private static final String MISSING_REASON = "N'in the source but missing from the published table: deleted there after"
            + " publication by someone else'";
    private static final List<MssqlColumn> EXTRAS = List.of(
            new MssqlColumn("dpone range", "int", 4, 10, 0, false, null),
            new MssqlColumn("dpone key", "nvarchar", MssqlColumn.MAX, 0, 0, false, null),
            new MssqlColumn("dpone key sha", "varbinary", 32, 0, 0, false, null));
    private static final MssqlColumn HASH = new MssqlColumn("dpone hash", "bigint", 8, 19, 0, false, null);
    private static final MssqlColumn VERSION = new MssqlColumn("dpone row version", "varbinary", 8, 0, 0, false, null);

    private final Connection target;
    private final MssqlJdbc jdbc;
    private final PassTable table;
    private final MssqlReconcileTables tables;
    private final MssqlPassStatements sql;
    private final PassColumns columns;
    private final PassColumns keyColumns;
    private final PassKey key;
    private final int[] keyIndexes;
    private final int chunkIndex;
    private final boolean identityKey;
    private final ChunkPlan plan;

    private final Set<Integer> compared = new HashSet<>();
    private final Set<Integer> withRows = new HashSet<>();
    private final Set<Integer> withOthers = new HashSet<>();
    private final Set<Integer> withGone = new HashSet<>();
    private final Set<Integer> withMissing = new HashSet<>();
    private RangeBuckets differing = new RangeBuckets();
    private byte[] mark;
    private boolean accepting;

    public MssqlPassTarget(Connection target, PassTable table) {
        this.target = target;
        this.jdbc = new MssqlJdbc(target);
        this.table = table;
        this.tables = new MssqlReconcileTables(table.stateSchema());
        this.plan = table.plan();
        String shown = MssqlIdentifiers.quote(table.schema()) + "." + MssqlIdentifiers.quote(table.table());
        try {
            List<MssqlColumn> loaded = MssqlTableColumns.of(target, table.schema(), table.table(), table.columns().target());
            this.columns = PassColumns.of(shown, loaded);
            List<MssqlColumn> keyed = MssqlTableColumns.of(target, table.schema(), table.table(), table.key());
            this.key = PassKey.of(shown, keyed);
            this.keyColumns = PassColumns.of(shown, keyed);
            String rowVersion = MssqlRowVersion.require(jdbc, table.schema(), table.table());
            this.identityKey = MssqlRowVersion.identityLoaded(jdbc, table.schema(), table.table(), table.columns().target(), table.key());
            this.sql = new MssqlPassStatements(table.schema(), table.table(), tables, loaded, table.key(), rowVersion);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the published table " + shown + ": " + e.getMessage(), e);
        }
        List<String> names = table.columns().target();
        this.keyIndexes = table.key().stream().mapToInt(names::indexOf).toArray();
        this.chunkIndex = table.chunkColumn() == null ? -1 : names.indexOf(table.chunkColumn());
    }

    @Override
    public RangeBuckets survey(List<ChunkRange> ranges, SourceRead changed, SourceRead sourceDigests) throws Exception {
        dropStaged();
        mark = MssqlReconcileLedger.rowMark(jdbc, tables, table.runKey());
        accepting = jdbc.one("SELECT COUNT_BIG(*) FROM " + tables.queue + " WHERE run_key = ? AND decision = N'accept'",
                rs -> rs.getLong(1), table.runKey()).orElse(0L) > 0;
        stageChangedRows(changed);
        KeyDigestSums source = new KeyDigestSums();
        try (ChunkRows digests = sourceDigests.open()) {
            while (digests.next()) {
                String[] f = CopyTextFields.split(digests.copyBytes());
                source.addDigest(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Long.parseLong(f[2]), new BigInteger(f[3]));
            }
        }
        KeyDigestSums published = new KeyDigestSums();
        withOthers.clear();
        try (KeyRowSpill others = new KeyRowSpill(key)) {
            readPublished((values, range, version, ours) -> {
                published.add(range, RecordKeyText.hash(values));
                if (!ours) {
                    others.write(values, range, version);
                    withOthers.add(range);
                }
            });
            stageKeyRows(MssqlPassStatements.OTHERS, others.read());
        }
        // The changed rows the published table lacks will be inserted: counted in, only deletes and others' hands differ.
        try (PreparedStatement ps = target.prepareStatement(sql.absentRows()); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                published.add(rs.getInt(1), rs.getLong(2));
            }
        }
        differing = source.differing(published);
        compared.clear();
        differing.numbers().forEach(n -> compared.add(n / KeyBuckets.COUNT));
        withGone.clear();
        withMissing.clear();
        return differing;
    }

    private void stageChangedRows(SourceRead changed) throws Exception {
        withRows.clear();
        jdbc.update(sql.createRows());
        List<String> names = new ArrayList<>(table.columns().target());
        List<MssqlColumnBinding> bindings = new ArrayList<>(columns.bindings());
        List<MssqlColumn> extras = new ArrayList<>(EXTRAS);
        extras.add(HASH);
        PassColumns extra = PassColumns.of("the staged rows", extras);
        extras.forEach(c -> names.add(c.name()));
        bindings.addAll(extra.bindings());
        int n = table.columns().target().size();
        try (ChunkRows rows = changed.open()) {
            Iterator<Object[]> decoded = new Iterator<>() {
                private Boolean ahead;

                @Override
                public boolean hasNext() {
                    if (ahead == null) {
                        try {
                            ahead = rows.next();
                        } catch (Exception e) {
                            throw new IllegalStateException("reading the source's changed rows: " + e.getMessage(), e);
                        }
                    }
                    return ahead;
                }

                @Override
                public Object[] next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    ahead = null;
                    String[] fields = CopyTextFields.split(rows.copyBytes());
                    Object[] out = new Object[n + 4];
                    for (int i = 0; i < n; i++) {
                        out[i] = PassColumns.decode(columns.family(i), fields[i]);
                    }
                    List<Object> keyValues = new ArrayList<>();
                    for (int k : keyIndexes) {
                        keyValues.add(out[k]);
                    }
                    String text = RecordKeyText.of(keyValues);
                    long hash = RecordKeyText.hash(keyValues);
                    int range = range(chunkIndex < 0 ? null : out[chunkIndex]);
                    withRows.add(range);
                    out[n] = range;
                    out[n + 1] = text;
                    out[n + 2] = PassKey.sha(text);
                    out[n + 3] = hash;
                    return out;
                }
            };
            MssqlBulkLoad.staging(target, MssqlPassStatements.ROWS, names, bindings).write(new ValueRows(decoded));
        }
    }

    @Override
    public void stageKeys(List<ChunkRange> ranges, SourceRead sourceKeys) throws Exception {
        // The source's keys go straight to the bulk copy; a source ships every key when most buckets differ, so only
        // the differing ones' are kept.
        try (ChunkRows keys = sourceKeys.open()) {
            Iterator<Object[]> differingKeys = new Iterator<>() {
                private Object[] ahead;

                @Override
                public boolean hasNext() {
                    try {
                        while (ahead == null && keys.next()) {
                            String[] f = CopyTextFields.split(keys.copyBytes());
                            List<Object> values = key.decode(f, 1);
                            int range = Integer.parseInt(f[0]);
                            if (differing.contains(range, RecordKeyText.bucket(RecordKeyText.hash(values)))) {
                                ahead = keyRow(values, range, RecordKeyText.of(values), new byte[0]);
                            }
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException("reading the source's keys: " + e.getMessage(), e);
                    }
                    return ahead != null;
                }

                @Override
                public Object[] next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    Object[] row = ahead;
                    ahead = null;
                    return row;
                }
            };
            stageKeyRows(MssqlPassStatements.SOURCE_KEYS, differingKeys);
        }
        try (KeyRowSpill published = new KeyRowSpill(key)) {
            readPublished((values, range, version, ours) -> {
                if (differing.contains(range, RecordKeyText.bucket(RecordKeyText.hash(values)))) {
                    published.write(values, range, version);
                }
            });
            stageKeyRows(MssqlPassStatements.PUBLISHED_KEYS, published.read());
        }
        // Gone: a published key the source has nowhere; missing: a source key the published table lacks (confirmed
        // against the table when the range applies). A changed row's key is the source's, and is written, not either.
        jdbc.update(sql.createKeys(MssqlPassStatements.GONE));
        jdbc.update(sql.unmatched(MssqlPassStatements.GONE, MssqlPassStatements.PUBLISHED_KEYS, MssqlPassStatements.SOURCE_KEYS));
        jdbc.update(sql.createKeys(MssqlPassStatements.MISSING));
        jdbc.update(sql.unmatched(MssqlPassStatements.MISSING, MssqlPassStatements.SOURCE_KEYS, MssqlPassStatements.PUBLISHED_KEYS));
        withGone.clear();
        withGone.addAll(jdbc.list(MssqlPassStatements.ranges(MssqlPassStatements.GONE), rs -> rs.getInt(1)));
        withMissing.clear();
        withMissing.addAll(jdbc.list(MssqlPassStatements.ranges(MssqlPassStatements.MISSING), rs -> rs.getInt(1)));
    }

    private Object[] keyRow(List<Object> values, int range, String text, byte[] version) {
        Object[] row = new Object[values.size() + 4];
        for (int i = 0; i < values.size(); i++) {
            row[i] = values.get(i);
        }
        row[values.size()] = range;
        row[values.size() + 1] = text;
        row[values.size() + 2] = PassKey.sha(text);
        row[values.size() + 3] = version == null ? new byte[0] : version;
        return row;
    }

    private void stageKeyRows(String staging, Iterator<Object[]> rows) throws Exception {
        jdbc.update(sql.createKeys(staging));
        List<String> names = new ArrayList<>(table.key());
        List<MssqlColumnBinding> bindings = new ArrayList<>(keyColumns.bindings());
        List<MssqlColumn> extras = new ArrayList<>(EXTRAS);
        extras.add(VERSION);
        extras.forEach(c -> names.add(c.name()));
        bindings.addAll(PassColumns.of("the staged keys", extras).bindings());
        MssqlBulkLoad.staging(target, staging, names, bindings).write(new ValueRows(rows));
    }

    /** One forward-only read of the published table's keys, chunk column, row version and whether the row is ours. */
    private void readPublished(PublishedRow each) throws Exception {
        try (PreparedStatement ps = target.prepareStatement(sql.readKeys(table.chunkColumn()), ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY)) {
            ps.setFetchSize(10_000);
            ps.setBytes(1, mark);
            ps.setString(2, table.runKey());
            try (ResultSet rs = ps.executeQuery()) {
                int n = table.key().size();
                while (rs.next()) {
                    List<Object> values = key.read(rs, 1);
                    Object chunk = chunkIndex < 0 ? null : chunkValue(rs, n + 1);
                    each.row(values, range(chunk), rs.getBytes(n + 2), rs.getInt(n + 3) == 1);
                }
            }
        }
    }

    private Object chunkValue(ResultSet rs, int column) throws SQLException {
        if (columns.family(chunkIndex) == io.dpone.backfill.source.TypeFamily.UUID) {
            String text = rs.getString(column);
            return text == null ? null : UUID.fromString(text);
        }
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }

    /** The plan's range holding a row with chunk column {@code value}: the whole table's one for a physical plan. */
    private int range(Object value) {
        if (!plan.kind().keyed()) {
            return 0;
        }
        if (value == null) {
            throw new IllegalStateException("a row of the published table has a NULL chunk column " + table.chunkColumn());
        }
        BigInteger number = value instanceof UUID u ? UuidKeys.fromBits(u.getMostSignificantBits(), u.getLeastSignificantBits())
                : BigInteger.valueOf(((Number) value).longValue());
        return plan.locate(number).id();
    }

    @FunctionalInterface
    private interface PublishedRow {
        void row(List<Object> key, int range, byte[] version, boolean ours) throws Exception;
    }

    @Override
    public ChunkReconciled apply(CampaignLease lease, int pass, int rangeId, ChunkRange range) throws Exception {
        return jdbc.inTransaction(() -> applyInTransaction(lease, pass, rangeId));
    }

    private ChunkReconciled applyInTransaction(CampaignLease lease, int pass, int rangeId) throws Exception {
        MssqlReconcileLedger.fence(jdbc, tables, lease);
        String runKey = lease.runKey();
        if (jdbc.one(sql.receiptExists(), rs -> 1, runKey, pass, rangeId).isPresent()) {
            // Committed before a crash whose resume surveyed again: exactly once per range.
            return ChunkReconciled.NOTHING;
        }
        // Every row of the range someone else wrote after publication waits for a decision, whatever the source did.
        long queued = 0;
        if (withOthers.contains(rangeId)) {
            String notAccepted = "NOT " + sql.accepted("bf_k." + MssqlPassStatements.SHA);
            queued += jdbc.update(sql.requeue(MssqlPassStatements.OTHERS, OTHERS_REASON, null), pass, runKey, rangeId)
                    + jdbc.update(sql.enqueue(MssqlPassStatements.OTHERS, OTHERS_REASON, notAccepted), runKey, pass, rangeId, runKey, runKey);
        }
        long upserted = 0;
        if (withRows.contains(rangeId)) {
            recreate(MssqlPassStatements.WROTE, sql.createWrote());
            String update = sql.update();
            if (update != null) {
                upserted += jdbc.update(update, rangeId, runKey, mark, runKey, runKey);
            }
            upserted += identityInsert(() -> jdbc.update(sql.insert(), rangeId, runKey));
            jdbc.update(sql.rememberWrittenUpdate(), runKey);
            jdbc.update(sql.rememberWrittenInsert(), runKey, runKey);
            if (accepting) {
                jdbc.update(sql.settleWritten(), runKey, rangeId);
            }
        }
        long deleted = 0;
        if (withGone.contains(rangeId)) {
            recreate(MssqlPassStatements.DELETED, sql.createDeleted());
            deleted = jdbc.update(sql.delete(), rangeId, runKey, mark, runKey, runKey);
            if (accepting) {
                jdbc.update(sql.settleDeleted(), runKey, rangeId);
            }
        }
        if (withMissing.contains(rangeId)) {
            String condition = sql.stillMissing() + " AND NOT " + sql.accepted("bf_k." + MssqlPassStatements.SHA);
            queued += jdbc.update(sql.requeue(MssqlPassStatements.MISSING, MISSING_REASON, sql.stillMissing()), pass, runKey, rangeId)
                    + jdbc.update(sql.enqueue(MssqlPassStatements.MISSING, MISSING_REASON, condition), runKey, pass, rangeId, runKey, runKey);
        }
        jdbc.update(sql.receipt(), runKey, pass, rangeId, upserted, deleted, queued, compared.contains(rangeId), lease.epoch());
        return new ChunkReconciled(upserted, deleted, queued, compared.contains(rangeId));
    }

    private void recreate(String staging, String create) throws SQLException {
        jdbc.update(MssqlPassStatements.drop(staging));
        jdbc.update(create);
    }

    /** An identity key's explicit values are inserted as the source has them, as the lanes' bulk copy keeps them. */
    private int identityInsert(MssqlJdbc.Work<Integer, Exception> insert) throws Exception {
        if (!identityKey) {
            return insert.run();
        }
        try (Statement s = target.createStatement()) {
            s.execute("SET IDENTITY_INSERT " + sql.live() + " ON");
        }
        try {
            return insert.run();
        } finally {
            try (Statement s = target.createStatement()) {
                s.execute("SET IDENTITY_INSERT " + sql.live() + " OFF");
            }
        }
    }

    @Override
    public void close() throws SQLException {
        dropStaged();
    }

    private void dropStaged() throws SQLException {
        for (String staging : MssqlPassStatements.STAGED) {
            jdbc.update(MssqlPassStatements.drop(staging));
        }
    }
}
