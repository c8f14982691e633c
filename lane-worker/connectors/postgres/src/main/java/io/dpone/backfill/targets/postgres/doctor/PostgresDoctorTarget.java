package io.dpone.backfill.targets.postgres.doctor;

import io.dpone.backfill.core.campaign.BackfillCampaignSpec;
import io.dpone.backfill.core.campaign.PublicationMode;
import io.dpone.backfill.core.campaign.IdentifierLimit;
import io.dpone.backfill.core.validation.ColumnNameFindings;
import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.postgres.PostgresCatalog.Column;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.postgres.PostgresIdentifiers;
import io.dpone.backfill.source.postgres.PostgresDoctorSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** Target checks: the reviewed live table exists as a plain table and has the unique key columns. */
public final class PostgresDoctorTarget {
    /** The live target as the other target checks need it. */
    public record LiveTarget(Relation relation, List<Column> columns) {
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
        if (!ColumnNameFindings.check("target", schema + "." + table, columns.stream().map(Column::name).toList(),
                IdentifierLimit.POSTGRES, findings)) {
            return Optional.empty();
        }
        // The key names source columns: each must load a target column (issue 27).
        List<String> targetNames = columns.stream().map(Column::name).toList();
        List<String> missing = spec.getUniqueKey().stream()
                .filter(k -> targetOf(spec, k, targetNames).isEmpty()).toList();
        if (missing.isEmpty()) {
            findings.add(Finding.ok("target.table.ok", "target table " + schema + "." + table + " exists with the"
                    + " unique key columns " + spec.getUniqueKey()));
        } else {
            findings.add(Finding.error("target.unique-key.missing", "unique key column(s) " + missing
                    + " do not exist in target table " + schema + "." + table,
                    "Add the columns to the reviewed target table, or fix spec.uniqueKey."));
        }
        if (spec.getPublication().getMode() == PublicationMode.SHADOW_SWAP) {
            occupancy(relation.get());
        }
        return Optional.of(new LiveTarget(relation.get(), columns));
    }

    /**
     * A shadow swap replaces the live table: rows it holds stay only in the backup, and rows written into it after
     * preparation block publication. Both deserve a person's look before the campaign, not after.
     */
    private boolean readable(Relation live) throws SQLException {
        try (PreparedStatement ps = target.prepareStatement("SELECT pg_catalog.has_table_privilege(?::oid, 'SELECT')")) {
            ps.setLong(1, live.oid());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private void occupancy(Relation live) throws SQLException {
        String name = live.schema() + "." + live.name();
        if (!readable(live)) {
            findings.add(Finding.error("target.table.select-denied", "the target role cannot read live target " + name
                    + ": the campaign fingerprints its rows at preparation and again at publication, so that writes"
                    + " during the campaign are never hidden in the backup", "GRANT SELECT ON "
                    + PostgresIdentifiers.qualified(live.schema(), live.name()) + " to the target role."));
            return;
        }
        try (PreparedStatement ps = target.prepareStatement("SELECT EXISTS (SELECT 1 FROM "
                + PostgresIdentifiers.qualified(live.schema(), live.name()) + "), (SELECT count(DISTINCT l.pid) FROM"
                + " pg_catalog.pg_locks l WHERE l.relation = ?::oid AND l.mode = 'RowExclusiveLock'"
                + " AND l.pid <> pg_catalog.pg_backend_pid())")) {
            ps.setLong(1, live.oid());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getBoolean(1)) {
                    findings.add(Finding.warning("target.table.not-empty", "live target " + name + " holds rows: the"
                            + " shadow swap replaces them (they stay in the backup), and any write to it after"
                            + " preparation blocks publication", "Confirm that the published table should not"
                            + " contain today's rows, and stop writers of " + name + " for the campaign."));
                }
                if (rs.getLong(2) > 0) {
                    findings.add(Finding.warning("target.table.being-written", rs.getLong(2) + " session(s) are"
                            + " writing " + name + " right now: writes after preparation block publication",
                            "Stop the applications that write " + name + " until the campaign has published."));
                }
            }
        }
    }

    private static Optional<String> targetOf(BackfillCampaignSpec spec, String sourceColumn, List<String> targetNames) {
        try {
            return spec.columnMapping().targetOf(sourceColumn, targetNames);
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // the columns check names the ambiguity
        }
    }
}
