package io.dpone.backfill.cli.certify;

import io.dpone.backfill.core.campaign.TargetType;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The little SQL certify writes itself on the target, per target type: quoting, counting, the server's version. */
public enum TargetDialect {
    POSTGRES {
        @Override
        String quote(String name) {
            return PostgresIdentifiers.quote(name);
        }

        @Override
        String count(String qualifiedTable) {
            return "SELECT count(*) FROM " + qualifiedTable;
        }

        @Override
        String versionQuery() {
            return "SELECT version()";
        }
    },
    MSSQL {
        @Override
        String quote(String name) {
            return MssqlIdentifiers.quote(name);
        }

        @Override
        String count(String qualifiedTable) {
            return "SELECT COUNT_BIG(*) FROM " + qualifiedTable;
        }

        @Override
        String versionQuery() {
            return "SELECT @@VERSION";
        }
    };

    static TargetDialect of(TargetType type) {
        return type == TargetType.MSSQL ? MSSQL : POSTGRES;
    }

    abstract String quote(String name);

    abstract String count(String qualifiedTable);

    abstract String versionQuery();

    String qualified(String schema, String table) {
        return quote(schema) + "." + quote(table);
    }

    /** Keys as text compare across engines: SQL Server prints uniqueidentifier in upper case, PostgreSQL in lower. */
    String normaliseKey(String text) {
        return this == MSSQL && text != null ? text.toLowerCase(java.util.Locale.ROOT) : text;
    }

    String version(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(versionQuery())) {
            rs.next();
            return rs.getString(1).replaceAll("\\s+", " ").trim();
        }
    }

    /** Babelfish answers T-SQL on PostgreSQL; its @@VERSION says so. */
    static boolean isBabelfish(String version) {
        return version != null && version.toLowerCase(java.util.Locale.ROOT).contains("babelfish");
    }
}
