package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.targets.mssql.doctor.MssqlDoctorTarget.LiveTarget;
import io.dpone.backfill.targets.mssql.doctor.MssqlPermissionProbe.Subjects;
import io.dpone.backfill.targets.mssql.doctor.MssqlPermissionVerdict.Live;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What the campaign's database user must be allowed to do: one probe of its roles, effective permissions and schema
 * ownership ({@link MssqlPermissionProbe}), judged statement by statement ({@link MssqlPermissionVerdict}).
 */
final class MssqlDoctorPrivileges {
    private final Connection target;
    private final BackfillCampaignSpec spec;
    private final List<Finding> findings;

    MssqlDoctorPrivileges(Connection target, BackfillCampaignSpec spec, List<Finding> findings) {
        this.target = target;
        this.spec = spec;
        this.findings = findings;
    }

    /** {@code live} is null when the target table is missing; the table's permissions are then not checked. */
    void check(LiveTarget live) throws SQLException {
        String schema = spec.getTarget().getSchema();
        String state = spec.getState().getSchema();
        MssqlPermissionProbe.Snapshot snapshot = MssqlPermissionProbe.read(target,
                new Subjects(schema, live == null ? null : live.qualified(), state));
        findings.addAll(new MssqlPermissionVerdict(snapshot, schema, state,
                live == null ? null : new Live(live.shown(), live.qualified())).findings());
    }
}
