package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorTarget.LiveTarget;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Refuses a live table that uses a feature the shadow would drop ({@link MssqlRefusedFeature}): nothing
 * security-relevant (masks, encryption) or structural (partitioning, compression) is lost silently at publication.
 */
final class MssqlDoctorFeatures {
    private final MssqlDoctorSql sql;
    private final List<Finding> findings;

    MssqlDoctorFeatures(MssqlDoctorSql sql, List<Finding> findings) {
        this.sql = sql;
        this.findings = findings;
    }

    void check(LiveTarget live) throws SQLException {
        Map<MssqlRefusedFeature, List<String>> uses = new EnumMap<>(MssqlRefusedFeature.class);
        for (MssqlRefusedFeature feature : MssqlRefusedFeature.values()) {
            if (feature.requiredColumn() != null
                    && sql.integer("SELECT COL_LENGTH(N'sys.columns', ?)", feature.requiredColumn()) == null) {
                continue;
            }
            uses.put(feature, sql.strings(feature.sql(), live.objectId()));
        }
        findings.addAll(findings(live.shown(), uses));
    }

    /** One ERROR per feature in use, naming the columns or indexes that use it. */
    static List<Finding> findings(String shown, Map<MssqlRefusedFeature, List<String>> uses) {
        List<Finding> refusals = new ArrayList<>();
        uses.forEach((feature, where) -> {
            if (!where.isEmpty()) {
                refusals.add(Finding.error(feature.code(), "target " + shown + " uses " + feature.feature() + " ("
                        + String.join(", ", where) + "): " + feature.consequence(), feature.action()));
            }
        });
        return refusals;
    }
}
