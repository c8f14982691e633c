package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.targets.mssql.MssqlIdentifiers;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The campaign's artifact names: the shadow name must be free or hold this run key's shadow (a resume); the backup
 * name must be free or hold this run key's backup. The owner is the {@code run_key=} part of the table's
 * {@code dpone_backfill} extended property; anything else would make preparation or publication fail closed.
 */
final class MssqlDoctorArtifacts {
    static final String STAMP = "dpone_backfill";
    private static final Pattern RUN_KEY = Pattern.compile("(?:^|\\s)run_key=(\\S+)");
    private static final String OBJECT_TYPE = "SELECT RTRIM(o.type) FROM sys.objects o WHERE o.object_id = OBJECT_ID(?)";
    private static final String STAMP_VALUE = "SELECT CONVERT(nvarchar(4000), value) FROM sys.extended_properties"
            + " WHERE class = 1 AND major_id = OBJECT_ID(?) AND minor_id = 0 AND name = N'" + STAMP + "'";

    private final List<Finding> findings;
    private final MssqlDoctorSql sql;

    MssqlDoctorArtifacts(Connection target, List<Finding> findings) {
        this.findings = findings;
        this.sql = new MssqlDoctorSql(target);
    }

    void check(ArtifactNames names, String runKey) throws SQLException {
        shadow(names, runKey);
        backup(names, runKey);
    }

    private void shadow(ArtifactNames names, String runKey) throws SQLException {
        String shown = names.schema() + "." + names.shadowTable();
        String qualified = qualified(names.schema(), names.shadowTable());
        List<String> type = sql.strings(OBJECT_TYPE, qualified);
        if (type.isEmpty()) {
            findings.add(Finding.ok("target.shadow.free", "shadow name " + shown + " is free"));
            return;
        }
        Optional<String> stamp = stamp(qualified);
        Optional<String> owner = stamp.flatMap(MssqlDoctorArtifacts::runKeyOf);
        if (owner.isEmpty() || !type.get(0).equals("U")) {
            findings.add(Finding.error("target.shadow.unstamped", "shadow name " + shown + " is taken by "
                    + (type.get(0).equals("U") ? "a table without a " + STAMP + " run_key stamp"
                    : "an object that is not a table (sys.objects type " + type.get(0) + ")"), "Inspect it; rename or"
                    + " drop it if nobody needs it, or use artifactScope: campaign. It is never reused or dropped"
                    + " automatically."));
        } else if (owner.get().equals(runKey)) {
            findings.add(Finding.ok("target.shadow.owned", "shadow " + shown + " belongs to this run key; the"
                    + " campaign resumes into it"));
        } else {
            findings.add(Finding.error("target.shadow.foreign", "shadow name " + shown + " is held by run key "
                    + owner.get() + " (stamp '" + stamp.get() + "'), not by run key " + runKey, "Finish or abandon"
                    + " that campaign and drop its shadow after review, or use artifactScope: campaign so that this"
                    + " backfillId gets its own shadow name."));
        }
    }

    private void backup(ArtifactNames names, String runKey) throws SQLException {
        String shown = names.schema() + "." + names.backupTable();
        String qualified = qualified(names.schema(), names.backupTable());
        if (sql.strings(OBJECT_TYPE, qualified).isEmpty()) {
            findings.add(Finding.ok("target.backup.free", "backup name " + shown + " is free"));
            return;
        }
        Optional<String> stamp = stamp(qualified);
        if (stamp.flatMap(MssqlDoctorArtifacts::runKeyOf).filter(runKey::equals).isPresent()) {
            findings.add(Finding.ok("target.backup.owned", "backup " + shown + " was kept by this run key's"
                    + " publication"));
            return;
        }
        findings.add(Finding.error("target.backup.exists", "backup name " + shown + " is taken ("
                + stamp.map(s -> "stamp '" + s + "'").orElse("no " + STAMP + " stamp") + "): publication could not"
                + " keep the live table as the backup", "Drop or rename the old backup after review (backup cleanup"
                + " is an explicit operation), or use artifactScope: campaign."));
    }

    private Optional<String> stamp(String qualified) throws SQLException {
        return sql.strings(STAMP_VALUE, qualified).stream().findFirst();
    }

    /** The {@code run_key=} part of a stamp; the rest of the value belongs to the publisher. */
    static Optional<String> runKeyOf(String stamp) {
        Matcher m = RUN_KEY.matcher(stamp == null ? "" : stamp);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static String qualified(String schema, String table) {
        return MssqlIdentifiers.quote(schema) + "." + MssqlIdentifiers.quote(table);
    }
}
