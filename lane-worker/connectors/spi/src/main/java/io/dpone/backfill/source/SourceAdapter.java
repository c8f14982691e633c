package io.dpone.backfill.source;

import io.dpone.backfill.connect.DatabaseEndpoint;
import io.dpone.backfill.core.campaign.SourceType;
import io.dpone.backfill.core.generate.SourceTableFacts;
import io.dpone.backfill.core.heal.StaleSessions;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.source.SourceCatalog;
import io.dpone.backfill.core.source.SourceLoadProbe;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Everything one source engine contributes to a campaign, over connections the caller opened with
 * {@link #endpoint()}: what the engine and the lanes read, and what a target's doctor and chunk sink ask of the
 * source ({@link #columns}, {@link #doctor()}, {@link #keyProbe}). One implementation per {@link SourceType}, in its
 * own {@code io.dpone.backfill.source.<engine>} package, registered beside the targets in wiring's
 * {@code Connectors}. A target learns of the source only through this interface.
 */
public interface SourceAdapter {
    SourceType type();

    /** How the source's driver is reached: the URL a Secret's host/port/database compose, client properties. */
    DatabaseEndpoint endpoint();

    /** How this process names and ends its own abandoned sessions on the source after a reconnect. */
    StaleSessions sessions();

    /** The anchor, the table's shape, coverage, physical extent and row estimates, for the engine. */
    SourceCatalog catalog(Connection source);

    /** How busy the source is, for the source guard (issue 28). */
    SourceLoadProbe load(Connection source);

    /**
     * What a target needs to know of {@code columns} of the table, in that order. Throws
     * {@link UnsupportedSourceTypeException} for the first column the source cannot hand over, and
     * {@link IllegalArgumentException} for a missing table or column.
     */
    List<SourceColumn> columns(Connection source, String schema, String table, List<String> columns) throws SQLException;

    /** The chunk reader of one table, as lanes, verify and the read-back gate read it. */
    ChunkReader chunks(Connection source, ChunkReading reading);

    /** The source's own pre-flight checks, which every target's doctor runs first. */
    SourceDoctor doctor();

    /** What a target's doctor asks of the source rows a foreign key will meet (issues 27 and 36). */
    SourceKeyProbe keyProbe(Connection source);

    /** The tables of a source schema, for {@code backfill generate} (issue 27). */
    List<SourceTableFacts> tables(Connection source, String schema) throws SQLException;

    /** How the source selects one chunk, as {@code backfill plan} shows it (e.g. a SQL predicate). */
    String chunkCondition(ChunkPlan plan, ChunkRange chunk);

    /**
     * Rows of {@code chunk} written at or after {@code anchor} (the campaign's snapshot anchor): rows that
     * legitimately differ from what was loaded, for {@code verify}.
     */
    long rowsChangedSince(Connection source, String schema, String table, ChunkPlan plan, ChunkRange chunk, String anchor)
            throws SQLException;

    /**
     * The source side of one reconciliation pass (issue 38) over {@code source}, which it holds in one snapshot until
     * closed: {@code reading}'s table and load columns, {@code keyColumns} the source columns of the target's key.
     * A source that cannot take a pass's snapshot says so.
     */
    default io.dpone.backfill.core.reconcile.PassSource passSource(Connection source, ChunkReading reading,
                                                                   List<String> keyColumns) throws SQLException {
        throw new UnsupportedOperationException("reconciliation passes are not supported from a " + type().wireName()
                + " source yet");
    }
}
