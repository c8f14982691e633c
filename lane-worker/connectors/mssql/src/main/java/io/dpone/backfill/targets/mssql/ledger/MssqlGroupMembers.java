package io.dpone.backfill.targets.mssql.ledger;

import io.dpone.backfill.targets.mssql.MssqlJdbc;
import io.dpone.backfill.core.campaign.CampaignPhase;
import io.dpone.backfill.core.ledger.GroupMember;

import java.sql.SQLException;
import java.util.List;

/** A publication group's member rows, read the same way by the store and inside the group's swap. */
final class MssqlGroupMembers {
    private MssqlGroupMembers() {
    }

    static List<GroupMember> read(MssqlJdbc sql, MssqlLedgerText statements, String group) throws SQLException {
        return sql.list(statements.groupMembers(), rs -> new GroupMember(rs.getString(1), rs.getString(2),
                rs.getString(3), rs.getString(4), rs.getString(5), CampaignPhase.valueOf(rs.getString(6)),
                rs.getObject(12) == null ? null : new GroupMember.Readiness(rs.getString(7), rs.getString(8),
                        rs.getLong(9), rs.getString(10), rs.getString(11))), group);
    }
}
