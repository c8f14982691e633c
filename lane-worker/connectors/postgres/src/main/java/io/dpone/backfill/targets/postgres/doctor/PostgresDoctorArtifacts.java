package io.dpone.backfill.targets.postgres.doctor;

import io.dpone.backfill.core.doctor.Finding;
import io.dpone.backfill.core.naming.ArtifactNames;
import io.dpone.backfill.postgres.PostgresCatalog.Relation;
import io.dpone.backfill.postgres.PostgresCatalog;
import io.dpone.backfill.targets.postgres.publish.PostgresShadowStamp;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The campaign's artifact names: the shadow name must be free or hold this run key's shadow (a resume); the
 * backup name must be free or hold this run key's backup (already published). Anything else would make
 * preparation or publication fail closed, so it is reported now.
 */
public final class PostgresDoctorArtifacts {
    private final Connection target;
    private final List<Finding> findings;

    PostgresDoctorArtifacts(Connection target, List<Finding> findings) {
        this.target = target;
        this.findings = findings;
    }

    void check(ArtifactNames names, String runKey) throws SQLException {
        PostgresCatalog catalog = new PostgresCatalog(target);
        String shadowName = names.schema() + "." + names.shadowTable();
        Optional<Relation> shadow = catalog.relation(names.schema(), names.shadowTable());
        if (shadow.isEmpty()) {
            findings.add(Finding.ok("target.shadow.free", "shadow name " + shadowName + " is free"));
        } else if (shadow.get().isTable() && PostgresShadowStamp.isShadowOf(shadow.get().comment(), runKey)) {
            findings.add(Finding.ok("target.shadow.owned", "shadow " + shadowName + " belongs to this run key;"
                    + " the campaign resumes into it"));
        } else if (shadow.get().comment() != null && shadow.get().comment().startsWith("dpone-backfill ")) {
            findings.add(Finding.error("target.shadow.foreign", "shadow name " + shadowName + " is held by "
                    + PostgresShadowStamp.describeOwner(shadow.get().comment()) + ", not by run key " + runKey,
                    "Finish or abandon that campaign and drop its shadow after review, or use artifactScope:"
                            + " campaign so that this backfillId gets its own shadow name."));
        } else {
            findings.add(Finding.error("target.shadow.unstamped", "shadow name " + shadowName + " is taken by a"
                    + " relation without a dpone-backfill stamp", "Inspect it; rename or drop it if nobody needs"
                    + " it, or use artifactScope: campaign. It is never reused or dropped automatically."));
        }
        String backupName = names.schema() + "." + names.backupTable();
        Optional<Relation> backup = catalog.relation(names.schema(), names.backupTable());
        if (backup.isEmpty()) {
            findings.add(Finding.ok("target.backup.free", "backup name " + backupName + " is free"));
        } else if (PostgresShadowStamp.startsWith(backup.get().comment(), PostgresShadowStamp.backup(runKey))) {
            findings.add(Finding.ok("target.backup.owned", "backup " + backupName + " was kept by this run key's"
                    + " publication"));
        } else {
            findings.add(Finding.error("target.backup.exists", "backup name " + backupName + " is taken ("
                    + PostgresShadowStamp.describeOwner(backup.get().comment()) + "): publication could not keep"
                    + " the live table as the backup", "Drop or rename the old backup after review (backup cleanup"
                    + " is an explicit operation), or use artifactScope: campaign."));
        }
    }
}
