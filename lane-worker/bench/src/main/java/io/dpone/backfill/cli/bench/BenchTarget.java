package io.dpone.backfill.cli.bench;

import io.dpone.backfill.core.campaign.TargetType;

import java.sql.SQLException;

/** The target the bench loads into: an embedded PostgreSQL of its own, or a SQL Server the user names. */
interface BenchTarget extends AutoCloseable {
    TargetType type();

    /** One line for the report: engine, where, and the scratch schema when there is one. */
    String describe();

    /** A fresh place for one arm run, named by {@code label} (letters, digits and underscores). */
    ArmPlace place(String label) throws SQLException;

    @Override
    void close() throws SQLException;
}
