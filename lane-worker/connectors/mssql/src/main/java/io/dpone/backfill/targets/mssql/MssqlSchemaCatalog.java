package io.dpone.backfill.targets.mssql;

import io.dpone.backfill.core.generate.SchemaCatalog;
import io.dpone.backfill.core.campaign.IdentifierComparison;
import io.dpone.backfill.core.generate.TableReference;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** A SQL Server schema's user tables ({@code sys.tables}) and the foreign keys among them ({@code sys.foreign_keys}). */
public final class MssqlSchemaCatalog implements SchemaCatalog {
    private static final String TABLES = """
            SELECT t.name FROM sys.tables AS t WHERE t.schema_id = SCHEMA_ID(?) AND t.is_ms_shipped = 0 ORDER BY t.name""";
    private static final String REFERENCES = """
            SELECT DISTINCT OBJECT_NAME(fk.parent_object_id), OBJECT_NAME(fk.referenced_object_id)
              FROM sys.foreign_keys AS fk
             WHERE OBJECT_SCHEMA_NAME(fk.parent_object_id) = ? AND OBJECT_SCHEMA_NAME(fk.referenced_object_id) = ?
             ORDER BY 1, 2""";

    private final Connection connection;

    public MssqlSchemaCatalog(Connection connection) {
        this.connection = connection;
    }

    @Override
    public List<String> tables(String schema) {
        try (PreparedStatement ps = connection.prepareStatement(TABLES)) {
            ps.setString(1, schema);
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            return tables;
        } catch (SQLException e) {
            throw MssqlFailures.of("list the tables of schema " + schema + ": " + e.getMessage(), e);
        }
    }

    @Override
    public IdentifierComparison names() {
        try {
            return MssqlIdentifierNames.of(connection);
        } catch (SQLException e) {
            throw MssqlFailures.of("read the database's collation: " + e.getMessage(), e);
        }
    }

    @Override
    public List<TableReference> references(String schema) {
        try (PreparedStatement ps = connection.prepareStatement(REFERENCES)) {
            ps.setString(1, schema);
            ps.setString(2, schema);
            List<TableReference> references = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    references.add(new TableReference(rs.getString(1), rs.getString(2)));
                }
            }
            return references;
        } catch (SQLException e) {
            throw MssqlFailures.of("read the foreign keys of schema " + schema + ": " + e.getMessage(), e);
        }
    }
}
