package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.targets.mssql.doctor.MssqlPermissionFact.Subject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads every {@link MssqlPermissionFact} for the current database user in one parameterised SELECT, so the verdict
 * ({@link MssqlPermissionVerdict}) is decided in Java from a snapshot a test can write by hand.
 */
final class MssqlPermissionProbe {
    /** What the probe is asked about; {@code liveTable} is the quoted two-part name, null when the table is missing. */
    record Subjects(String targetSchema, String liveTable, String stateSchema) {
        Object of(Subject subject) {
            return switch (subject) {
                case NONE -> null;
                case TARGET_SCHEMA -> targetSchema;
                case LIVE_TABLE -> liveTable;
                case STATE_SCHEMA -> stateSchema;
            };
        }
    }

    /** The user's name and the facts that hold for it. */
    record Snapshot(String user, Set<MssqlPermissionFact> held) {
        boolean has(MssqlPermissionFact fact) {
            return held.contains(fact);
        }
    }

    private MssqlPermissionProbe() {
    }

    /** The probe's text: USER_NAME() then one column per fact, each named after it. */
    static String sql() {
        return "SELECT USER_NAME() AS user_name, " + List.of(MssqlPermissionFact.values()).stream()
                .map(f -> f.expression() + " AS " + f.column()).collect(Collectors.joining(", "));
    }

    /** The probe's parameters in order: each fact with a subject takes exactly one. */
    static List<Object> parameters(Subjects subjects) {
        List<Object> parameters = new ArrayList<>();
        for (MssqlPermissionFact fact : MssqlPermissionFact.values()) {
            if (fact.subject() != Subject.NONE) {
                parameters.add(subjects.of(fact.subject()));
            }
        }
        return parameters;
    }

    static Snapshot read(Connection target, Subjects subjects) throws SQLException {
        try (PreparedStatement ps = target.prepareStatement(sql())) {
            List<Object> parameters = parameters(subjects);
            for (int i = 0; i < parameters.size(); i++) {
                if (parameters.get(i) == null) {
                    ps.setNull(i + 1, java.sql.Types.NVARCHAR);
                } else {
                    ps.setNString(i + 1, parameters.get(i).toString());
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("the permission probe returned no row");
                }
                Set<MssqlPermissionFact> held = EnumSet.noneOf(MssqlPermissionFact.class);
                for (MssqlPermissionFact fact : MssqlPermissionFact.values()) {
                    int value = rs.getInt(fact.column());
                    if (!rs.wasNull() && value == 1) {
                        held.add(fact);
                    }
                }
                return new Snapshot(rs.getString("user_name"), held);
            }
        }
    }
}
