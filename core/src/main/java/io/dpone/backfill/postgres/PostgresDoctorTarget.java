package io.dpone.backfill.postgres;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.postgres.PostgresCatalog.Column;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** Target checks: the reviewed live table exists as a plain table and has the unique key columns. */
final class PostgresDoctorTarget {
    /** The live target as the other target checks need it. */
    record LiveTarget(Relation relation, List<Column> columns) {
    }

    private final Connection target;
    private final BackfillCampaignSpec spec;
    private final List<Finding> findings;

    PostgresDoctorTarget(Connection target, BackfillCampaignSpec spec, List<Finding> findings) {
        this.target = target;
        this.spec = spec;
        this.findings = findings;
    }

    Optional<LiveTarget> check() throws SQLException {
        String schema = spec.getTarget().getSchema();
        String table = spec.getTarget().getTable();
        PostgresCatalog catalog = new PostgresCatalog(target);
        Optional<Relation> relation = catalog.relation(schema, table);
        if (relation.isEmpty()) {
            findings.add(Finding.error("target.table.missing", "target table " + schema + "." + table
                    + " does not exist", "Provision and review the target table first (its catalog shape is the"
                    + " authority for the shadow), or fix spec.target.schema and spec.target.table."));
            return Optional.empty();
        }
        if (!relation.get().isTable()) {
            findings.add(Finding.error("target.table.not-a-table", "target " + schema + "." + table
                    + " is not a plain table (relkind " + relation.get().kind() + "): partitioned tables, views and"
                    + " foreign tables cannot be published by a swap", "Point spec.target.table at a plain table."));
            return Optional.empty();
        }
        List<Column> columns = catalog.columns(relation.get().oid());
        List<String> missing = spec.getUniqueKey().stream()
                .filter(k -> PostgresDoctorSource.find(columns, k).isEmpty()).toList();
        if (missing.isEmpty()) {
            findings.add(Finding.ok("target.table.ok", "target table " + schema + "." + table + " exists with the"
                    + " unique key columns " + spec.getUniqueKey()));
        } else {
            findings.add(Finding.error("target.unique-key.missing", "unique key column(s) " + missing
                    + " do not exist in target table " + schema + "." + table,
                    "Add the columns to the reviewed target table, or fix spec.uniqueKey."));
        }
        return Optional.of(new LiveTarget(relation.get(), columns));
    }
}
