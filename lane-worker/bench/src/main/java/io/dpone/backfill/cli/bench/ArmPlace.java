package io.dpone.backfill.cli.bench;

import io.dpone.backfill.connect.ConnectionSettings;
import io.dpone.backfill.core.engine.PhaseDetail;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Where one run of one arm writes on the target: a fresh database (PostgreSQL) or a set of tables in the scratch
 * schema (SQL Server). Closing it drops what the run wrote, so repeated arms never share a table or a cache of one.
 */
interface ArmPlace extends AutoCloseable {
    /** The table the arm loads, unqualified. */
    String table();

    String schema();

    /** The campaign's ledger schema. */
    String stateSchema();

    /** Connection settings a campaign uses to reach this place. */
    ConnectionSettings settings();

    Connection connect() throws SQLException;

    /** The table as the floor arms load it: no rowstore index (a clustered columnstore on SQL Server stays). */
    void createBareTable() throws SQLException;

    /** The reviewed live table: the bare table with its primary key and secondary index. */
    /** Whether a reconciliation pass can run into this place (arm R). */
    default boolean reconcilable() {
        return false;
    }

    default void createLiveTable() throws SQLException {
        createBareTable();
        try (Connection c = connect()) {
            buildIndexes(c);
        }
    }

    /** Builds the live table's primary key and secondary index on a loaded bare table. */
    void buildIndexes(Connection target) throws SQLException;

    /** Streams ranges of the source into {@link #table()} on {@code target}, the fastest way the engine takes them. */
    RangeLoader pipe(Connection source, SourceReads reads, Connection target) throws SQLException;

    /** The incident's shape: each range staged, then upserted into the live table, one transaction per range. */
    RangeLoader stagedUpsert(Connection source, SourceReads reads, Connection target, int worker) throws SQLException;

    long count() throws SQLException;

    /** Bytes the target has written to its write-ahead (transaction) log so far, when the engine lets us read it. */
    OptionalLong logBytesWritten();

    /** The target database's clock now, as text its own timestamps compare with. */
    String clock() throws SQLException;

    /** The seconds a campaign's read-back gate took, from its ledger's phase detail; empty when it compared none. */
    default OptionalDouble contentCheckSeconds(String runKey) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(campaignDetailQuery())) {
            ps.setString(1, runKey);
            try (ResultSet rs = ps.executeQuery()) {
                PhaseDetail.ContentCheckRecord check = rs.next() ? PhaseDetail.parse(rs.getString(1)).contentCheck() : null;
                return check == null || !check.check().equals("content") ? OptionalDouble.empty()
                        : OptionalDouble.of(check.seconds());
            }
        }
    }

    /**
     * Seconds one session takes to read every column of every row of {@link #table()} and throw the values away: the
     * floor the read-back gate's digesting reads (issue 35) are compared with.
     */
    double rawReadSeconds() throws SQLException;

    /** The campaign row's phase detail by run key ({@code ?}), in this target's ledger. */
    String campaignDetailQuery();

    /** Committed chunks of a campaign from its ledger, in seconds since {@code since} (a {@link #clock()} value). */
    List<ChunkTiming> chunkTimings(String runKey, String since) throws SQLException;

    @Override
    void close() throws SQLException;
}
