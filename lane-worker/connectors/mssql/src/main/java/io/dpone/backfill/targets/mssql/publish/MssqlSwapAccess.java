package io.dpone.backfill.targets.mssql.publish;

import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Gives the table about to become live the owner and the object permissions of the table it replaces:
 * {@code sp_rename} keeps both with the old table, so without this the users of the live name would lose access
 * at the swap. Permissions are read from {@code sys.database_permissions} (class 1 = object or column): GRANT,
 * GRANT WITH GRANT OPTION and DENY, table-wide or per column; what the shadow had is revoked first, so the result
 * is exactly the live table's set.
 */
final class MssqlSwapAccess {
    // Permission names come from the catalog and are concatenated into GRANT: only known ones pass.
    private static final Set<String> PERMISSIONS = Set.of("SELECT", "INSERT", "UPDATE", "DELETE", "REFERENCES",
            "ALTER", "CONTROL", "TAKE OWNERSHIP", "VIEW DEFINITION", "VIEW CHANGE TRACKING");

    /** One permission; {@code state} G (grant), W (grant with grant option) or D (deny); {@code column} null = table. */
    record Permission(String state, String permission, String grantee, String column) {
    }

    private static final String PERMISSIONS_OF = """
            SELECT p.state, p.permission_name, pr.name AS grantee,
                   CASE WHEN p.minor_id = 0 THEN NULL ELSE COL_NAME(p.major_id, p.minor_id) END AS column_name
              FROM sys.database_permissions AS p
              JOIN sys.database_principals AS pr ON pr.principal_id = p.grantee_principal_id
             WHERE p.class = 1 AND p.major_id = OBJECT_ID(?, N'U')""";
    private static final String OWNER_OF = "SELECT USER_NAME(principal_id) AS owner FROM sys.objects WHERE object_id = OBJECT_ID(?, N'U')";

    private final Connection connection;

    MssqlSwapAccess(Connection connection) {
        this.connection = connection;
    }

    void copy(String schema, String from, String to) throws SQLException {
        String target = "OBJECT::" + MssqlObjectNames.twoPart(schema, to);
        String owner = owner(schema, from);
        if (!Objects.equals(owner, owner(schema, to))) {
            // NULL principal_id: owned by the schema's owner, the default for a new table.
            MssqlShadowTransaction.execute(connection, "ALTER AUTHORIZATION ON " + target + " TO "
                    + (owner == null ? "SCHEMA OWNER" : MssqlIdentifiers.quote(owner)));
        }
        for (Permission p : permissions(schema, to)) {
            MssqlShadowTransaction.execute(connection, "REVOKE " + known(p) + column(p) + " ON " + target + " FROM "
                    + MssqlIdentifiers.quote(p.grantee()) + " CASCADE");
        }
        for (Permission p : permissions(schema, from)) {
            MssqlShadowTransaction.execute(connection, statement(p, target));
        }
    }

    List<Permission> permissions(String schema, String table) throws SQLException {
        List<Permission> permissions = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(PERMISSIONS_OF)) {
            ps.setString(1, MssqlObjectNames.twoPart(schema, table));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    permissions.add(new Permission(rs.getString(1).trim(), rs.getString(2), rs.getString(3), rs.getString(4)));
                }
            }
        }
        return permissions;
    }

    static String statement(Permission p, String target) {
        String grantee = MssqlIdentifiers.quote(p.grantee());
        return switch (p.state()) {
            case "D" -> "DENY " + known(p) + column(p) + " ON " + target + " TO " + grantee;
            case "W" -> "GRANT " + known(p) + column(p) + " ON " + target + " TO " + grantee + " WITH GRANT OPTION";
            case "G" -> "GRANT " + known(p) + column(p) + " ON " + target + " TO " + grantee;
            default -> throw new IllegalStateException("unexpected permission state '" + p.state() + "' on the live table");
        };
    }

    private String owner(String schema, String table) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(OWNER_OF)) {
            ps.setString(1, MssqlObjectNames.twoPart(schema, table));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static String known(Permission p) {
        if (!PERMISSIONS.contains(p.permission())) {
            throw new IllegalStateException("unexpected permission '" + p.permission() + "' on the live table");
        }
        return p.permission();
    }

    private static String column(Permission p) {
        return p.column() == null ? "" : " (" + MssqlIdentifiers.quote(p.column()) + ")";
    }
}
