package io.dpone.backfill.targets.mssql.doctor;

import io.dpone.backfill.core.doctor.Finding;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** A failing catalog query becomes an ERROR finding of its family ({@code <family>.check-failed}); the others still run. */
final class MssqlDoctorGuard {
    interface Check<T> {
        T run() throws SQLException;
    }

    private MssqlDoctorGuard() {
    }

    static <T> Optional<T> guarded(String family, String catalog, List<Finding> findings, Check<T> check) {
        try {
            return Optional.ofNullable(check.run());
        } catch (SQLException | RuntimeException e) {
            findings.add(Finding.error(family + ".check-failed", "the " + family + " checks failed: " + e.getMessage(),
                    "Check that the login can read " + catalog + " and that the connection is healthy, then rerun doctor."));
            return Optional.empty();
        }
    }

    /** A check that returns nothing, guarded the same way. */
    static void run(String family, List<Finding> findings, VoidCheck check) {
        guarded(family, "the sys.* catalog views", findings, () -> {
            check.run();
            return Boolean.TRUE;
        });
    }

    interface VoidCheck {
        void run() throws SQLException;
    }
}
