package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.ChunkKind;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.HeapExtent;
import io.dpone.backfill.core.source.AnchorCheck;
import io.dpone.backfill.core.source.ChunkRowEstimates;
import io.dpone.backfill.core.source.HeapExtentRefusedException;
import io.dpone.backfill.core.source.SourceCatalog;
import io.dpone.backfill.core.source.SourceCoverage;
import io.dpone.backfill.core.source.SourceReadCost;
import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresSqlException;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The PostgreSQL source: the XMin anchor ({@code pg_snapshot_xmin(pg_current_snapshot())}, a 64-bit
 * epoch-extended transaction id) and table shapes.
 */
public final class PostgresSourceCatalog implements SourceCatalog {
    /**
     * Incremental sync compares 32-bit xmin values, which wrap at 2^32 and compare correctly only within 2^31;
     * an anchor this far behind is refused with a margin.
     */
    static final long MAX_ANCHOR_AGE = 2_000_000_000L;
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,20}");
    private static final int MAX_SHOWN = 40;

    private final Connection source;

    public PostgresSourceCatalog(Connection source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    @Override
    public String captureAnchor() {
        return currentXmin().toString();
    }

    @Override
    public AnchorCheck checkAnchor(String anchorXmin) {
        if (!isTransactionId(anchorXmin)) {
            return notATransactionId(anchorXmin);
        }
        return assess(anchorXmin, currentXmin());
    }

    /** The verdict on a stored anchor given the source's current snapshot xmin. */
    static AnchorCheck assess(String anchorXmin, BigInteger current) {
        if (!isTransactionId(anchorXmin)) {
            return notATransactionId(anchorXmin);
        }
        BigInteger anchor = new BigInteger(anchorXmin);
        if (anchor.compareTo(current) > 0) {
            return AnchorCheck.unusable("anchor " + anchor + " is ahead of the source's current snapshot xmin "
                    + current + ": it was not captured on this server (or the server was restored from a backup)");
        }
        BigInteger age = current.subtract(anchor);
        if (age.compareTo(BigInteger.valueOf(MAX_ANCHOR_AGE)) >= 0) {
            return AnchorCheck.unusable("anchor " + anchor + " is " + age + " transactions behind the current xmin "
                    + current + ": too old for the 32-bit xmin comparisons incremental sync relies on");
        }
        return AnchorCheck.ok();
    }

    private static boolean isTransactionId(String text) {
        return text != null && DIGITS.matcher(text).matches();
    }

    private static AnchorCheck notATransactionId(String text) {
        return AnchorCheck.unusable("anchor " + shown(text) + " is not a transaction id");
    }

    @Override
    public TableShape shape(String schema, String table) {
        try {
            return new PostgresCatalog(source).shape(schema, table);
        } catch (SQLException e) {
            throw new PostgresSqlException("read the shape of source " + schema + "." + table, e);
        }
    }

    @Override
    public SourceCoverage uncoveredRows(String schema, String table, String chunkColumn) {
        try {
            PostgresCatalog catalog = new PostgresCatalog(source);
            Optional<PostgresCatalog.Relation> relation = catalog.relation(schema, table);
            if (relation.isEmpty()) {
                throw new IllegalStateException("source table " + schema + "." + table + " does not exist");
            }
            Optional<PostgresCatalog.Column> column = catalog.columns(relation.get().oid()).stream()
                    .filter(c -> c.name().equals(chunkColumn)).findFirst();
            if (column.isPresent() && column.get().notNull()) {
                return SourceCoverage.notNullInCatalog(chunkColumn);
            }
            String sql = "SELECT count(*) FROM " + PostgresIdentifiers.qualified(schema, table) + " WHERE "
                    + PostgresIdentifiers.quote(chunkColumn) + " IS NULL";
            try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                rs.next();
                return SourceCoverage.counted(rs.getLong(1), "rows with a NULL chunk column " + chunkColumn
                        + " counted in the source");
            }
        } catch (SQLException e) {
            throw new PostgresSqlException("count source rows no chunk covers in " + schema + "." + table, e);
        }
    }

    @Override
    public HeapExtent heapExtent(String schema, String table) {
        try {
            PostgresHeapState state = PostgresHeapState.read(source, schema, table).orElseThrow(() ->
                    new HeapExtentRefusedException("source table " + schema + "." + table + " does not exist"));
            List<String> refusals = state.refusals();
            if (!refusals.isEmpty()) {
                throw new HeapExtentRefusedException("chunk.kind physical refused for " + schema + "." + table + ": "
                        + String.join("; ", refusals));
            }
            return state.extent();
        } catch (SQLException e) {
            throw new PostgresSqlException("measure the heap of source " + schema + "." + table, e);
        }
    }

    @Override
    public ChunkRowEstimates estimateChunkRows(String schema, String table, ChunkPlan plan) {
        try {
            if (plan.kind() == ChunkKind.PHYSICAL) {
                return new PostgresHeapRowEstimator(source).estimate(schema, table, plan);
            }
            return new PostgresRowEstimator(source).estimate(schema, table, plan);
        } catch (SQLException e) {
            return ChunkRowEstimates.none("the source estimate failed (SQL state " + e.getSQLState() + "): " + e.getMessage());
        }
    }

    @Override
    public SourceReadCost readCost(String schema, String table, ChunkPlan plan) {
        try {
            return new PostgresReadCost(source).estimate(schema, table, plan);
        } catch (SQLException e) {
            return SourceReadCost.unknown("the prediction failed (SQL state " + e.getSQLState() + "): " + e.getMessage());
        }
    }

    private BigInteger currentXmin() {
        try (Statement s = source.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_catalog.pg_snapshot_xmin(pg_catalog.pg_current_snapshot())::text")) {
            rs.next();
            return new BigInteger(rs.getString(1));
        } catch (SQLException e) {
            throw new PostgresSqlException("read the source's snapshot xmin", e);
        }
    }

    private static String shown(String text) {
        if (text == null) {
            return "(none)";
        }
        return "'" + (text.length() > MAX_SHOWN ? text.substring(0, MAX_SHOWN) + "..." : text) + "'";
    }
}
