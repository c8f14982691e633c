package io.dpone.backfill.targets.postgres.publish;

import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.core.publish.TargetCatalog;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresSqlException;

import java.sql.Connection;
import java.sql.SQLException;

/** A PostgreSQL target's table shapes, read from pg_catalog on one connection. */
public final class PostgresTargetCatalog implements TargetCatalog {
    private final Connection target;

    public PostgresTargetCatalog(Connection target) {
        this.target = target;
    }

    @Override
    public TableShape shape(String schema, String table) {
        try {
            return new PostgresCatalog(target).shape(schema, table);
        } catch (SQLException e) {
            throw new PostgresSqlException("read the shape of " + schema + "." + table, e);
        }
    }

    @Override
    public TableShape liveShape(String schema, String table) {
        try {
            return new PostgresCatalog(target).liveShape(schema, table);
        } catch (SQLException e) {
            throw new PostgresSqlException("read the catalog of " + schema + "." + table, e);
        }
    }
}
