package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.core.publish.TableShape;
import io.dpone.backfill.core.publish.TargetCatalog;
import io.dpone.backfill.core.campaign.IdentifierComparison;
import io.dpone.backfill.targets.mssql.MssqlFailures;
import io.dpone.backfill.targets.mssql.MssqlIdentifierNames;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * A SQL Server target's table shapes from the {@code sys.*} catalog views on one connection: columns (type with
 * length, precision, scale and collation; nullability; default or computed definition; identity) and, for the
 * reviewed live table, every index and constraint as {@code name: definition}.
 */
public final class MssqlTargetCatalog implements TargetCatalog {
    private final Connection target;
    /** The database's identifier comparison, read once: a collation does not change under a campaign. */
    private IdentifierComparison names;

    public MssqlTargetCatalog(Connection target) {
        this.target = target;
    }

    @Override
    public TableShape shape(String schema, String table) {
        try {
            return shape(target, schema, table).comparedAs(names());
        } catch (SQLException e) {
            throw MssqlFailures.of("read the shape of " + schema + "." + table + ": " + e.getMessage(), e);
        }
    }

    @Override
    public TableShape liveShape(String schema, String table) {
        try {
            return liveShape(target, schema, table).comparedAs(names());
        } catch (SQLException e) {
            throw MssqlFailures.of("read the catalog of " + schema + "." + table + ": " + e.getMessage(), e);
        }
    }

    private IdentifierComparison names() throws SQLException {
        if (names == null) {
            names = MssqlIdentifierNames.of(target);
        }
        return names;
    }

    static TableShape shape(Connection c, String schema, String table) throws SQLException {
        return new TableShape(new MssqlCatalogColumns(c).of(schema, table).stream().map(MssqlCatalogColumn::shape).toList());
    }

    static TableShape liveShape(Connection c, String schema, String table) throws SQLException {
        List<String> objects = new MssqlCatalogObjects(c).of(schema, table).stream().map(MssqlCarriedObject::described)
                .sorted().toList();
        return new TableShape(shape(c, schema, table).columns(), objects);
    }
}
