package io.dpone.backfill.source.postgres;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.source.SourceDoctor;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** The PostgreSQL source's pre-flight as every target's doctor runs it: connectivity, then the table's checks. */
final class PostgresSourceDoctor implements SourceDoctor {
    static final PostgresSourceDoctor INSTANCE = new PostgresSourceDoctor();

    private PostgresSourceDoctor() {
    }

    @Override
    public boolean connected(Connection source, List<Finding> findings) {
        return PostgresDoctorConnectivity.check(source, "source", findings);
    }

    @Override
    public boolean checkTable(Connection source, BackfillCampaignSpec spec, List<Finding> findings) throws SQLException {
        return new PostgresDoctorSource(source, spec, findings).check().isPresent();
    }

    @Override
    public String catalogName() {
        return "pg_catalog";
    }
}
