package io.dpone.backfill.source.postgres;

import io.dpone.backfill.connect.DatabaseEndpoint;
import io.dpone.backfill.core.campaign.SourceType;
import io.dpone.backfill.core.generate.SourceTableFacts;
import io.dpone.backfill.core.heal.StaleSessions;
import io.dpone.backfill.core.plan.ChunkPlan;
import io.dpone.backfill.core.plan.ChunkRange;
import io.dpone.backfill.core.source.SourceCatalog;
import io.dpone.backfill.core.source.SourceLoadProbe;
import io.dpone.backfill.postgres.PostgresEndpoint;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.postgres.PostgresJdbc;
import io.dpone.backfill.postgres.PostgresSessions;
import io.dpone.backfill.source.ChunkReader;
import io.dpone.backfill.source.ChunkReading;
import io.dpone.backfill.source.SourceAdapter;
import io.dpone.backfill.source.SourceColumn;
import io.dpone.backfill.source.SourceDoctor;
import io.dpone.backfill.source.SourceKeyProbe;
import io.dpone.backfill.source.postgres.binary.SourceColumnPlanner;
import io.dpone.backfill.source.postgres.binary.TypeFamilies;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** PostgreSQL as the source: snapshots and the XMin anchor, binary COPY streams, the source's own checks. */
public final class PostgresSourceAdapter implements SourceAdapter {
    @Override
    public SourceType type() {
        return SourceType.POSTGRES;
    }

    @Override
    public DatabaseEndpoint endpoint() {
        return PostgresEndpoint.INSTANCE;
    }

    @Override
    public StaleSessions sessions() {
        return PostgresSessions.INSTANCE;
    }

    @Override
    public SourceCatalog catalog(Connection source) {
        return new PostgresSourceCatalog(source);
    }

    @Override
    public SourceLoadProbe load(Connection source) {
        return new PostgresSourceLoadProbe(source);
    }

    /** The columns as the chunk reader will decode them: what the binary COPY plan projects and decodes. */
    @Override
    public List<SourceColumn> columns(Connection source, String schema, String table, List<String> columns)
            throws SQLException {
        return new SourceColumnPlanner(source).plan(schema, table, columns).columns().stream()
                .map(TypeFamilies::describe).toList();
    }

    @Override
    public ChunkReader chunks(Connection source, ChunkReading reading) {
        return new PostgresChunkSource(source, reading.plan(), reading.schema(), reading.table(), reading.columns(),
                reading.heap(), reading.anchorXmin(), reading.keyColumns());
    }

    @Override
    public SourceDoctor doctor() {
        return PostgresSourceDoctor.INSTANCE;
    }

    @Override
    public SourceKeyProbe keyProbe(Connection source) {
        return new PostgresSourceKeyProbe(source);
    }

    @Override
    public List<SourceTableFacts> tables(Connection source, String schema) throws SQLException {
        return new PostgresSourceTables(source).of(schema);
    }

    @Override
    public String chunkCondition(ChunkPlan plan, ChunkRange chunk) {
        return PostgresChunkPredicate.render(plan, chunk);
    }

    /** {@code xmin::text::bigint}, exact in xid epoch 0 as for physical chunks (ADR 0015). */
    @Override
    public long rowsChangedSince(Connection source, String schema, String table, ChunkPlan plan, ChunkRange chunk,
                                 String anchor) throws SQLException {
        BigInteger xmin = new BigInteger(anchor.trim());
        String predicate = plan.kind().keyed() ? PostgresChunkPredicate.render(plan, chunk) : PostgresHeapPredicate.blocks(chunk);
        return new PostgresJdbc(source).one("SELECT count(*) AS n FROM " + PostgresIdentifiers.qualified(schema, table)
                + " WHERE " + predicate + " AND xmin::text::bigint >= " + xmin, rs -> rs.getLong("n")).orElse(0L);
    }

    @Override
    public io.dpone.backfill.core.reconcile.PassSource passSource(Connection source, ChunkReading reading,
                                                                  java.util.List<String> keyColumns) throws SQLException {
        return PostgresPassSource.begin(source, reading, keyColumns);
    }
}
